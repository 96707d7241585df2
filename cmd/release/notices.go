package main

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The notices: the MIT, BSD and Apache licences of the modules a binary links ask whoever
// distributes the binary to carry their copyright notices and licence texts. Each archive
// carries THIRD_PARTY_NOTICES.txt, written from the binary's own build information (the
// modules actually linked for that platform) and the licence files of those modules in the
// module cache.

// noticesName is the notices' file name in an archive.
const noticesName = "THIRD_PARTY_NOTICES.txt"

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// licenceFile matches the files a module keeps its licence and notices in.
var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents)([._-].*)?$`)

// writeNotices writes the notices of the modules linked into bin to path.
func writeNotices(ctx context.Context, bin, path string, o options) error {
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("read build info of %s: %w", bin, err)
	}
	var mods []string
	for _, m := range bi.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		if m.Version == "" { // a local replacement: not downloaded, not shipped from elsewhere
			continue
		}
		mods = append(mods, m.Path+"@"+m.Version)
	}
	dirs, err := moduleDirs(ctx, o.Root, mods)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Quarry %s links the Go standard library (%s) and the modules below.\nTheir licences and notices follow, as each module ships them.\n", o.Version, bi.GoVersion)
	for _, mod := range mods {
		fmt.Fprintf(&b, "\n\n================================================================\n%s\n================================================================\n", strings.Replace(mod, "@", " ", 1))
		files, err := licenceFiles(dirs[mod])
		if err != nil {
			return fmt.Errorf("%s: %w", mod, err)
		}
		if len(files) == 0 {
			return fmt.Errorf("%s: no licence file in %s", mod, dirs[mod])
		}
		for _, f := range files {
			text, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "\n--- %s ---\n\n%s\n", filepath.Base(f), bytes.TrimRight(text, "\n"))
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// moduleDirs finds the modules' folders in the module cache (go mod download -json, which
// downloads nothing the build has not already).
func moduleDirs(ctx context.Context, root string, mods []string) (map[string]string, error) {
	out := map[string]string{}
	if len(mods) == 0 {
		return out, nil
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"mod", "download", "-json"}, mods...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go mod download: %w: %s", err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var m struct{ Path, Version, Dir, Error string }
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		if m.Error != "" || m.Dir == "" {
			return nil, fmt.Errorf("go mod download %s@%s: %s", m.Path, m.Version, m.Error)
		}
		out[m.Path+"@"+m.Version] = m.Dir
	}
	return out, nil
}

// licenceFiles lists a module's licence and notice files at its root, by name.
func licenceFiles(dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range es {
		if e.Type().IsRegular() && licenceFile.MatchString(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}
