package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"syscall"
)

// buildVersion, buildCommit and buildTime are stamped by the release build (cmd/release) with
// -ldflags "-X main.buildVersion=… -X main.buildCommit=… -X main.buildTime=…", and buildCommit
// also where the build has no VCS information (a container build without .git). The build
// info's commit wins when it has one; buildVersion wins over the module version, which is
// "(devel)" in any build from a clone.
var buildVersion, buildCommit, buildTime string

// version prints what the Go toolchain recorded in the binary: the module version (a tag when
// installed with go install, "(devel)" from a clone), the VCS commit and its time, and
// whether the work tree had local changes.
func version(args []string, stdout io.Writer) error {
	fs := newFlags("version")
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	fmt.Fprintln(stdout, versionText())
	return nil
}

func versionText() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "quarry (no build information)"
	}
	s := bi.Settings
	get := func(k string) string {
		for _, kv := range s {
			if kv.Key == k {
				return kv.Value
			}
		}
		return ""
	}
	ver := bi.Main.Version
	if buildVersion != "" {
		ver = buildVersion
	}
	if ver == "" {
		ver = "(devel)"
	}
	commit, at := get("vcs.revision"), get("vcs.time")
	if commit == "" {
		commit = buildCommit
	}
	if commit == "" {
		commit = "unknown"
	}
	if get("vcs.modified") == "true" {
		commit += " (modified)"
	}
	built := buildTime
	if built == "" {
		built = "unknown"
	}
	if at == "" {
		at = "unknown"
	}
	cgo := get("CGO_ENABLED")
	if cgo == "" {
		cgo = "unknown"
	}
	return fmt.Sprintf("quarry %s\ncommit %s\ncommit time %s\nbuild time %s\nbuilt with %s %s/%s CGO_ENABLED=%s",
		ver, commit, at, built, bi.GoVersion, get("GOOS"), get("GOARCH"), cgo)
}

// listenError says what to do when the server cannot listen, the usual case being a port
// another process holds.
func listenError(addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		_, port, _ := net.SplitHostPort(addr)
		return fmt.Errorf("listen on %s: port %s is already in use; stop the other server or choose another port with --port or PORT", addr, port)
	}
	if errors.Is(err, syscall.EACCES) {
		return fmt.Errorf("listen on %s: permission denied; ports below 1024 need privileges, choose another with --port or PORT", addr)
	}
	return fmt.Errorf("listen on %s: %w; set the address with --host/--port or HOST/PORT", addr, err)
}
