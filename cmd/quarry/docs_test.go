package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/cli.md from the commands' help")

func noEnv(string) string { return "" }

// helpOf is what `quarry ARGS... --help` prints, as a user sees it.
func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), append(args, "--help"), &out, &out, noEnv)
	if err != nil && err != errHelp {
		t.Fatalf("quarry %s --help: %v", strings.Join(args, " "), err)
	}
	return out.String()
}

// commands lists the commands the top-level usage names, in its order, each followed by its
// subcommands (the helps keys "tokens create", …).
func commands() []string {
	var cmds []string
	seen := map[string]bool{}
	for _, line := range strings.Split(usage, "\n") {
		f := strings.Fields(line)
		if !strings.HasPrefix(line, "  quarry ") || len(f) < 2 || seen[f[1]] {
			continue
		}
		seen[f[1]] = true
		cmds = append(cmds, f[1])
		var subs []string
		for k := range helps {
			if strings.HasPrefix(k, f[1]+" ") {
				subs = append(subs, k)
			}
		}
		sort.Strings(subs)
		cmds = append(cmds, subs...)
	}
	return cmds
}

// renderCLIDoc is docs/cli.md: the top-level usage and every command's own help.
func renderCLIDoc(t *testing.T) string {
	var b strings.Builder
	b.WriteString("# Command-line reference\n\n")
	b.WriteString("<!-- Generated from the commands' own help by `go test ./cmd/quarry -run TestCLIReference -update`; do not edit. -->\n\n")
	b.WriteString("Every command prints this with `--help`. Flags go before or after positional arguments;\n")
	b.WriteString("a stray argument is refused, not ignored.\n\n```text\n$ quarry --help\n")
	b.WriteString(strings.TrimRight(helpOf(t), "\n"))
	b.WriteString("\n```\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "\n## quarry %s\n\n```text\n%s\n```\n", c, strings.TrimRight(helpOf(t, strings.Fields(c)...), "\n"))
	}
	return b.String()
}

// docs/cli.md is the commands' own help, so it cannot drift from the binary.
func TestCLIReference(t *testing.T) {
	got := renderCLIDoc(t)
	path := "../../docs/cli.md"
	if *updateDocs {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("docs/cli.md is out of date with the commands' help: run go test ./cmd/quarry -run TestCLIReference -update")
	}
	for _, c := range commands() {
		if !strings.HasPrefix(helpOf(t, strings.Fields(c)...), "Usage: quarry "+c) {
			t.Errorf("quarry %s --help does not start with its usage line", c)
		}
	}
}

// flagsOf lists the flags `quarry CMD --help` prints.
func flagsOf(t *testing.T, cmd string) map[string]bool {
	flags := map[string]bool{"help": true, "h": true}
	help := helpOf(t, strings.Fields(cmd)...)
	_, list, _ := strings.Cut(help, "\nFlags:\n")
	for _, m := range regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(list, -1) {
		flags[m[1]] = true
	}
	return flags
}

// shellBlocks returns the commands of a Markdown file's sh/bash/shell/console code blocks,
// continuation lines joined, comments dropped.
func shellBlocks(md string) []string {
	var cmds []string
	in, cont := false, ""
	for _, line := range strings.Split(md, "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") {
			lang := strings.TrimPrefix(trim, "```")
			if in {
				in = false
			} else {
				in = lang == "sh" || lang == "bash" || lang == "shell" || lang == "console"
				if !in && lang != "" {
					// another language: skip to its closing fence
					in = false
				}
			}
			continue
		}
		if !in {
			continue
		}
		trim = strings.TrimPrefix(trim, "$ ")
		if strings.HasPrefix(trim, "#") {
			continue
		}
		if i := strings.Index(trim, " #"); i >= 0 {
			trim = trim[:i]
		}
		if strings.HasSuffix(trim, "\\") {
			cont += strings.TrimSuffix(trim, "\\") + " "
			continue
		}
		cmds = append(cmds, cont+trim)
		cont = ""
	}
	return cmds
}

// quarryInvocations finds `quarry CMD ...` in one shell command (also ./quarry, quarry.exe,
// go run ./cmd/quarry, and an image named quarry after docker run's or exec's options) and
// returns the words after it up to the next shell operator.
func quarryInvocations(cmd string) [][]string {
	var out [][]string
	for _, seg := range regexp.MustCompile("[|;&()<>`]").Split(cmd, -1) {
		words := strings.Fields(seg)
		for i, w := range words {
			w = strings.TrimPrefix(w, "/usr/local/bin/")
			if (w == "quarry" || w == "./quarry" || w == "quarry.exe" || w == "./cmd/quarry") && i+1 < len(words) {
				out = append(out, words[i+1:])
			}
		}
	}
	return out
}

// Every `quarry …` in the documentation's shell blocks names a real command and only flags
// that command has, so the docs cannot drift from the CLI.
func TestDocsCommands(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../README.md")
	known := map[string]bool{}
	for _, c := range commands() {
		known[c] = true
	}
	flags := map[string]map[string]bool{}
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range shellBlocks(string(data)) {
			for _, words := range quarryInvocations(sh) {
				c := words[0]
				if c == "quarry" || !regexp.MustCompile(`^[a-z]`).MatchString(c) {
					continue // docker build -t quarry ., docker exec quarry quarry …
				}
				if strings.Contains(c, "/") || strings.Contains(c, ":") {
					continue // a path or an image reference after the word
				}
				if len(words) > 1 && known[c+" "+words[1]] {
					c += " " + words[1]
				}
				if !known[c] {
					t.Errorf("%s: %q: quarry has no command %q", filepath.Base(f), sh, c)
					continue
				}
				if flags[c] == nil {
					flags[c] = flagsOf(t, c)
				}
				for _, w := range words[1:] {
					if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
						continue
					}
					name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
					if !flags[c][name] {
						t.Errorf("%s: %q: quarry %s has no flag %s", filepath.Base(f), sh, c, w)
					}
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d quarry commands found in the docs: is the block parser broken?", checked)
	}
}

// githubSlug is the anchor GitHub gives a heading.
func githubSlug(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`).ReplaceAllString(h, "")
	return strings.ReplaceAll(h, " ", "-")
}

// anchors lists a Markdown file's heading anchors (outside code blocks).
func anchors(md string) map[string]bool {
	as := map[string]bool{}
	fence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if m := regexp.MustCompile(`^#{1,6} (.*)$`).FindStringSubmatch(line); m != nil && !fence {
			as[githubSlug(m[1])] = true
		}
	}
	return as
}

// Every relative link of the README and docs/ points at a file that exists and, with an
// anchor, at a heading of it: moving sections between pages cannot leave dead links.
func TestDocsLinks(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			u := m[1]
			if regexp.MustCompile(`^[a-z]+:`).MatchString(u) {
				continue
			}
			path, anchor, _ := strings.Cut(u, "#")
			target := f
			if path != "" {
				target = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
			}
			st, err := os.Stat(target)
			if err != nil {
				t.Errorf("%s: link %s: %v", filepath.Base(f), u, err)
				continue
			}
			if anchor == "" || st.IsDir() || !strings.HasSuffix(target, ".md") {
				continue
			}
			td, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors(string(td))[anchor] {
				t.Errorf("%s: link %s: no heading #%s in %s", filepath.Base(f), u, anchor, filepath.Base(target))
			}
		}
	}
}
