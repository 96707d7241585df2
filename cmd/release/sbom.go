package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"debug/buildinfo"
)

// The SBOM is CycloneDX 1.5 JSON, written from the binary's own build information (what
// `go version -m` prints): the modules actually linked, with the go.sum hashes the toolchain
// recorded, so it describes the shipped binary rather than go.mod's wider graph.

type cdxBOM struct {
	BOMFormat    string         `json:"bomFormat"`
	SpecVersion  string         `json:"specVersion"`
	SerialNumber string         `json:"serialNumber"`
	Version      int            `json:"version"`
	Metadata     cdxMetadata    `json:"metadata"`
	Components   []cdxComponent `json:"components"`
	Dependencies []cdxDep       `json:"dependencies"`
}

type cdxMetadata struct {
	Timestamp string        `json:"timestamp"`
	Tools     cdxTools      `json:"tools"`
	Component cdxComponent  `json:"component"`
	Props     []cdxProperty `json:"properties,omitempty"`
}

type cdxTools struct {
	Components []cdxComponent `json:"components"`
}

type cdxComponent struct {
	Type    string        `json:"type"`
	BOMRef  string        `json:"bom-ref"`
	Name    string        `json:"name"`
	Version string        `json:"version,omitempty"`
	PURL    string        `json:"purl,omitempty"`
	Hashes  []cdxHash     `json:"hashes,omitempty"`
	Props   []cdxProperty `json:"properties,omitempty"`
}

type cdxHash struct {
	Alg     string `json:"alg"`
	Content string `json:"content"`
}

type cdxProperty struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type cdxDep struct {
	Ref       string   `json:"ref"`
	DependsOn []string `json:"dependsOn"`
}

// goPURL is the package URL of a Go module (purl spec: pkg:golang/namespace/name@version).
func goPURL(path, version string) string {
	p := "pkg:golang/" + strings.ToLower(path)
	if version != "" {
		p += "@" + url.PathEscape(version)
	}
	return p
}

func writeSBOM(bin, path string, o options) error {
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("read build info of %s: %w", bin, err)
	}
	main := cdxComponent{
		Type: "application", Name: bi.Main.Path, Version: o.Version,
		BOMRef: goPURL(bi.Main.Path, o.Version), PURL: goPURL(bi.Main.Path, o.Version),
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "GOOS", "GOARCH", "CGO_ENABLED", "-trimpath", "-ldflags", "vcs.revision", "vcs.time":
			main.Props = append(main.Props, cdxProperty{"go.build." + s.Key, s.Value})
		}
	}
	bom := cdxBOM{
		BOMFormat: "CycloneDX", SpecVersion: "1.5", Version: 1,
		SerialNumber: "urn:uuid:" + stableUUID(bin, o),
		Metadata: cdxMetadata{
			Timestamp: o.Date.Format(time.RFC3339),
			Tools:     cdxTools{Components: []cdxComponent{{Type: "application", BOMRef: "quarry-release", Name: "quarry cmd/release"}}},
			Component: main,
		},
		Components: []cdxComponent{{
			Type: "platform", Name: "go", Version: bi.GoVersion,
			BOMRef: "pkg:golang/stdlib@" + bi.GoVersion, PURL: "pkg:golang/stdlib@" + bi.GoVersion,
		}},
	}
	deps := cdxDep{Ref: main.BOMRef, DependsOn: []string{"pkg:golang/stdlib@" + bi.GoVersion}}
	for _, m := range bi.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		c := cdxComponent{Type: "library", Name: m.Path, Version: m.Version, BOMRef: goPURL(m.Path, m.Version), PURL: goPURL(m.Path, m.Version)}
		if h, ok := strings.CutPrefix(m.Sum, "h1:"); ok {
			c.Props = append(c.Props, cdxProperty{"go.sum.h1", h})
		}
		bom.Components = append(bom.Components, c)
		deps.DependsOn = append(deps.DependsOn, c.BOMRef)
	}
	bom.Dependencies = []cdxDep{deps}
	if sum, err := fileSHA256(bin); err == nil {
		bom.Metadata.Component.Hashes = []cdxHash{{"SHA-256", sum}}
	}
	data, err := json.MarshalIndent(bom, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// stableUUID derives the SBOM's serial number from what it describes, so that a rebuild of
// the same commit gives the same file.
func stableUUID(bin string, o options) string {
	h := sha256.Sum256([]byte(filepath.Base(filepath.Dir(bin)) + "\x00" + o.Version + "\x00" + o.Commit))
	h[6] = h[6]&0x0f | 0x50 // version 5-style (name-based)
	h[8] = h[8]&0x3f | 0x80
	s := hex.EncodeToString(h[:16])
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:32]
}
