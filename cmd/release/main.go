// Command release builds Quarry's release artifacts in one run, with nothing but the Go
// toolchain and git:
//
//	go run ./cmd/release                      # every target into dist/
//	go run ./cmd/release -targets linux/amd64 # one target
//
// For each target it builds a static (CGO_ENABLED=0), stripped (-s -w), -trimpath binary with
// the version, commit and date stamped into cmd/quarry (quarry version, quarry --version), and
// packs it with README.md, the licence, docs/ and the example app into a .tar.gz (a .zip for
// Windows). Beside the archives: a CycloneDX SBOM of each binary's Go modules (read from the
// binary's own build information), an OCI image layout of the Linux binaries (see oci.go) and
// SHA256SUMS over all of them.
//
// Why a program of our own rather than GoReleaser: GoReleaser is a large tool with a module
// graph bigger than Quarry's, it would have to be installed (or go run at a pinned version, a
// multi-minute cold build) on every CI machine, and its image support needs a Docker daemon,
// which these machines lack. What Quarry needs — five cross builds, archives, checksums, an
// SBOM from the build info and a daemonless OCI layout — is a few hundred lines of the standard
// library, which CI runs and tests like any other code.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// target is one GOOS/GOARCH pair.
type target struct{ OS, Arch string }

func (t target) String() string { return t.OS + "/" + t.Arch }

func (t target) exe() string {
	if t.OS == "windows" {
		return "quarry.exe"
	}
	return "quarry"
}

var allTargets = []target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"},
}

// options is one release run.
type options struct {
	Root    string // the repository root (where go.mod is)
	Out     string // output folder, emptied first
	Version string // stamped version, e.g. v1.2.0 or 0.0.0-snapshot.abc1234
	Commit  string
	Date    time.Time // the commit's time unless SOURCE_DATE_EPOCH says otherwise: reproducible
	Targets []target
	Image   bool // write the OCI image layout of the linux targets
	// Sizes also builds linux/amd64 without -s -w and reports both sizes.
	Sizes bool
	Log   io.Writer
}

// artifact is one file of the release, with what it is for the report.
type artifact struct {
	Path string
	Kind string // archive, sbom, image
}

// result is what a release run produced.
type result struct {
	Artifacts []artifact
	Binaries  map[target]string // target → built binary (under Out/build)
	Sums      string            // path of SHA256SUMS
	Image     string            // path of the OCI layout tar, when built
}

func main() {
	var (
		out      = flag.String("out", "dist", "output folder (emptied first)")
		version  = flag.String("version", "", "version to stamp (default: the exact git tag, else 0.0.0-snapshot.<commit>)")
		targets  = flag.String("targets", "", "comma-separated GOOS/GOARCH list (default: "+targetList(allTargets)+")")
		image    = flag.Bool("image", true, "also write the OCI image layout (linux targets)")
		sizes    = flag.Bool("sizes", false, "also build linux/amd64 unstripped and report both sizes")
		rootFlag = flag.String("root", ".", "repository root")
	)
	flag.Parse()
	ctx := context.Background()
	o, err := defaults(ctx, *rootFlag, *out, *version, *targets)
	if err != nil {
		fail(err)
	}
	o.Image, o.Sizes, o.Log = *image, *sizes, os.Stdout
	res, err := release(ctx, o)
	if err != nil {
		fail(err)
	}
	fmt.Printf("\n%d artifacts and %s\n", len(res.Artifacts), res.Sums)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "release:", err)
	os.Exit(1)
}

func targetList(ts []target) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ",")
}

func parseTargets(s string) ([]target, error) {
	if s == "" {
		return allTargets, nil
	}
	var ts []target
	for _, p := range strings.Split(s, ",") {
		os, arch, ok := strings.Cut(strings.TrimSpace(p), "/")
		if !ok || os == "" || arch == "" {
			return nil, fmt.Errorf("target %q: want GOOS/GOARCH", p)
		}
		ts = append(ts, target{os, arch})
	}
	return ts, nil
}

// defaults fills the version, commit and date from git and SOURCE_DATE_EPOCH.
func defaults(ctx context.Context, root, out, version, targets string) (options, error) {
	ts, err := parseTargets(targets)
	if err != nil {
		return options{}, err
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return options{}, err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return options{}, fmt.Errorf("-root %s is not the repository root: %w", root, err)
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	o := options{Root: root, Out: out, Version: version, Targets: ts, Log: io.Discard}
	o.Commit, _ = git(ctx, root, "rev-parse", "HEAD")
	if o.Commit == "" {
		o.Commit = "unknown"
	}
	if o.Version == "" {
		if tag, err := git(ctx, root, "describe", "--tags", "--exact-match", "HEAD"); err == nil && tag != "" {
			o.Version = tag
		} else {
			o.Version = "0.0.0-snapshot." + o.Commit[:min(7, len(o.Commit))]
		}
		// Uncommitted changes are not the commit the version names: say so.
		if st, err := git(ctx, root, "status", "--porcelain", "--untracked-files=no"); err == nil && st != "" {
			o.Version += "-dirty"
		}
	}
	o.Date = time.Now().UTC().Truncate(time.Second)
	if s, err := git(ctx, root, "log", "-1", "--format=%ct"); err == nil {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
			o.Date = time.Unix(sec, 0).UTC()
		}
	}
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return options{}, fmt.Errorf("SOURCE_DATE_EPOCH %q: %w", s, err)
		}
		o.Date = time.Unix(sec, 0).UTC()
	}
	return o, nil
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// release builds every target, packs the archives and SBOMs, the image, and SHA256SUMS.
func release(ctx context.Context, o options) (*result, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if err := os.RemoveAll(o.Out); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(o.Out, "build"), 0o755); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(o.Root, "LICENSE")); err != nil {
		fmt.Fprintln(o.Log, "warning: no LICENSE file at the repository root; the archives carry none")
	}
	res := &result{Binaries: map[target]string{}}
	base := "quarry_" + o.Version
	fmt.Fprintf(o.Log, "quarry %s, commit %s, date %s\n", o.Version, o.Commit, o.Date.Format(time.RFC3339))
	for _, t := range o.Targets {
		bin := filepath.Join(o.Out, "build", t.OS+"_"+t.Arch, t.exe())
		start := time.Now()
		if err := build(ctx, o, t, bin, true); err != nil {
			return nil, err
		}
		res.Binaries[t] = bin
		fi, err := os.Stat(bin)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(o.Log, "%-14s %6.1f MB  built in %s\n", t, float64(fi.Size())/1e6, time.Since(start).Round(100*time.Millisecond))

		if err := writeNotices(ctx, bin, filepath.Join(filepath.Dir(bin), noticesName), o); err != nil {
			return nil, fmt.Errorf("%s notices: %w", t, err)
		}
		name := fmt.Sprintf("%s_%s_%s", base, t.OS, t.Arch)
		archive := filepath.Join(o.Out, name+".tar.gz")
		if t.OS == "windows" {
			archive = filepath.Join(o.Out, name+".zip")
		}
		if err := writeArchive(o, name, t, bin, archive); err != nil {
			return nil, fmt.Errorf("%s archive: %w", t, err)
		}
		res.Artifacts = append(res.Artifacts, artifact{archive, "archive"})
		sbom := filepath.Join(o.Out, name+".cdx.json")
		if err := writeSBOM(bin, sbom, o); err != nil {
			return nil, fmt.Errorf("%s SBOM: %w", t, err)
		}
		res.Artifacts = append(res.Artifacts, artifact{sbom, "sbom"})
	}
	if o.Sizes {
		if err := reportSizes(ctx, o); err != nil {
			return nil, err
		}
	}
	if o.Image {
		var linux []target
		for _, t := range o.Targets {
			if t.OS == "linux" {
				linux = append(linux, t)
			}
		}
		if len(linux) > 0 {
			img := filepath.Join(o.Out, base+"_oci.tar")
			if err := writeImage(o, linux, res.Binaries, img); err != nil {
				return nil, fmt.Errorf("image: %w", err)
			}
			res.Image = img
			res.Artifacts = append(res.Artifacts, artifact{img, "image"})
			fmt.Fprintf(o.Log, "image          %s (OCI layout; linux %s)\n", filepath.Base(img), targetList(linux))
		}
	}
	res.Sums = filepath.Join(o.Out, "SHA256SUMS")
	if err := writeSums(res.Sums, res.Artifacts); err != nil {
		return nil, err
	}
	return res, nil
}

// build runs go build for one target; strip adds -s -w (no symbol table, no DWARF).
func build(ctx context.Context, o options, t target, bin string, strip bool) error {
	pkg := "github.com/quarrycms/quarry/cmd/quarry"
	ldflags := fmt.Sprintf("-X main.buildVersion=%s -X main.buildCommit=%s -X main.buildTime=%s",
		o.Version, o.Commit, o.Date.Format(time.RFC3339))
	if strip {
		ldflags = "-s -w " + ldflags
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", ldflags, "-o", bin, "./cmd/quarry")
	cmd.Dir = o.Root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch, "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s for %s: %w\n%s", pkg, t, err, out)
	}
	return nil
}

// reportSizes prints the linux/amd64 binary's size with and without -s -w.
func reportSizes(ctx context.Context, o options) error {
	t := target{"linux", "amd64"}
	dir, err := os.MkdirTemp("", "quarry-sizes")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sizes := [2]int64{}
	for i, strip := range []bool{false, true} {
		bin := filepath.Join(dir, fmt.Sprint(i))
		if err := build(ctx, o, t, bin, strip); err != nil {
			return err
		}
		fi, err := os.Stat(bin)
		if err != nil {
			return err
		}
		sizes[i] = fi.Size()
	}
	fmt.Fprintf(o.Log, "linux/amd64 binary: %.1f MB unstripped, %.1f MB with -s -w (%d bytes, %d bytes)\n",
		float64(sizes[0])/1e6, float64(sizes[1])/1e6, sizes[0], sizes[1])
	return nil
}
