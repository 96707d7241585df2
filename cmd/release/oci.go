package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The container image is written as an OCI image layout (oci-layout, index.json, blobs/) in
// one tar file, without a daemon or a registry: `docker load`, `podman load`, `skopeo copy
// oci-archive:…` and containerd import it, and the tests unpack it for runc. It is the image
// the Dockerfile builds for users who have Docker: FROM scratch, the static binary, CA
// certificates and time-zone data (from this machine's Debian packages ca-certificates and
// tzdata), a non-root user, the example app at /app, and one data folder /data for the
// SQLite database, the generated secrets and the uploads.

const (
	mtIndex    = "application/vnd.oci.image.index.v1+json"
	mtManifest = "application/vnd.oci.image.manifest.v1+json"
	mtConfig   = "application/vnd.oci.image.config.v1+json"
	mtLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"

	imageUID = 65532 // the "nonroot" user of distroless images, so volumes move between the two
	dataDir  = "/data"
)

// Host files the image carries; variables so a test on another system can point elsewhere.
var (
	hostCACerts  = "/etc/ssl/certs/ca-certificates.crt"
	hostZoneinfo = "/usr/share/zoneinfo"
)

// imageEnv is the image's default environment. The example app's default SQLite file and
// generated secrets live in /app/.tmp, which the image makes a link to /data; uploads go to
// /data/uploads. NODE_ENV=production turns the GraphQL playground off and requires JWT_SECRET.
var imageEnv = []string{
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"NODE_ENV=production",
	"HOST=0.0.0.0",
	"PORT=1337",
	"UPLOADS_DIR=" + dataDir + "/uploads",
}

type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *platform         `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

type platform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

type blob struct {
	desc descriptor
	data []byte
}

func newBlob(mediaType string, data []byte) blob {
	sum := sha256.Sum256(data)
	return blob{descriptor{MediaType: mediaType, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: int64(len(data))}, data}
}

func jsonBlob(mediaType string, v any) (blob, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return blob{}, err
	}
	return newBlob(mediaType, data), nil
}

// layer packs entries as a gzip'd tar; it returns the blob and the diff ID (the digest of the
// uncompressed tar) the image config lists.
func layer(es []entry, date time.Time) (blob, string, error) {
	var raw bytes.Buffer
	if err := writeTar(&raw, es, date); err != nil {
		return blob{}, "", err
	}
	diff := sha256.Sum256(raw.Bytes())
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return blob{}, "", err
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return blob{}, "", err
	}
	if err := zw.Close(); err != nil {
		return blob{}, "", err
	}
	return newBlob(mtLayer, gz.Bytes()), "sha256:" + hex.EncodeToString(diff[:]), nil
}

// baseEntries is the architecture-independent layer: users, certificates, time zones, the
// example app and the data folder.
func baseEntries(o options) ([]entry, error) {
	if _, err := os.Stat(hostCACerts); err != nil {
		return nil, fmt.Errorf("CA certificates: %w (install Debian's ca-certificates, or skip the image with -image=false)", err)
	}
	if _, err := os.Stat(hostZoneinfo); err != nil {
		return nil, fmt.Errorf("time-zone data: %w (install Debian's tzdata, or skip the image with -image=false)", err)
	}
	dir := func(name string, mode int64) entry { return entry{Name: name, Dir: true, Mode: mode} }
	es := []entry{
		dir("etc", 0o755),
		{Name: "etc/passwd", Mode: 0o644, Data: []byte(fmt.Sprintf(
			"root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:quarry:%s:/sbin/nologin\n", imageUID, imageUID, dataDir))},
		{Name: "etc/group", Mode: 0o644, Data: []byte(fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", imageUID))},
		dir("etc/ssl", 0o755), dir("etc/ssl/certs", 0o755),
		{Name: "etc/ssl/certs/ca-certificates.crt", Src: hostCACerts, Mode: 0o644},
		dir("tmp", 0o1777),
		{Name: "data", Dir: true, Mode: 0o755, UID: imageUID, GID: imageUID},
		{Name: "data/uploads", Dir: true, Mode: 0o755, UID: imageUID, GID: imageUID},
		dir("usr", 0o755), dir("usr/local", 0o755), dir("usr/local/bin", 0o755), dir("usr/share", 0o755),
	}
	zi, err := hostTree(hostZoneinfo, "usr/share/zoneinfo")
	if err != nil {
		return nil, err
	}
	es = append(es, zi...)
	es = append(es, dir("app", 0o755))
	for _, d := range []string{"config", "src"} {
		more, err := treeEntries(filepath.Join(o.Root, "examples", "blog", d), "app/"+d)
		if err != nil {
			return nil, err
		}
		es = append(es, more...)
	}
	// The app folder's .tmp (default SQLite file, generated API token salt and JWT secret)
	// is the data folder, so one volume keeps all of the app's state.
	es = append(es, entry{Name: "app/.tmp", Link: dataDir})
	return es, nil
}

// hostTree lists a host folder's directories, files and symbolic links.
func hostTree(src, name string) ([]entry, error) {
	var es []entry
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		n := name
		if rel != "." {
			n = name + "/" + filepath.ToSlash(rel)
		}
		switch {
		case d.IsDir():
			es = append(es, entry{Name: n, Dir: true, Mode: 0o755})
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			es = append(es, entry{Name: n, Link: target})
		case d.Type().IsRegular():
			es = append(es, entry{Name: n, Src: p, Mode: 0o644})
		}
		return nil
	})
	return es, err
}

// imageConfig is the OCI image configuration (with Docker's Healthcheck, which Docker reads
// and other runtimes ignore).
func imageConfig(o options, t target, diffIDs []string) map[string]any {
	created := o.Date.Format(time.RFC3339)
	return map[string]any{
		"created":      created,
		"architecture": t.Arch,
		"os":           t.OS,
		"config": map[string]any{
			"User":         fmt.Sprintf("%d:%d", imageUID, imageUID),
			"Env":          imageEnv,
			"Entrypoint":   []string{"/usr/local/bin/quarry"},
			"Cmd":          []string{"serve", "--app", "/app"},
			"WorkingDir":   "/app",
			"ExposedPorts": map[string]any{"1337/tcp": map[string]any{}},
			"Volumes":      map[string]any{dataDir: map[string]any{}},
			"Labels":       imageLabels(o),
			"Healthcheck": map[string]any{
				"Test":        []string{"CMD", "/usr/local/bin/quarry", "health"},
				"Interval":    int64(15 * time.Second),
				"Timeout":     int64(5 * time.Second),
				"StartPeriod": int64(30 * time.Second),
				"Retries":     3,
			},
		},
		"rootfs": map[string]any{"type": "layers", "diff_ids": diffIDs},
		"history": []map[string]any{
			{"created": created, "created_by": "cmd/release: users, CA certificates, tzdata, examples/blog, " + dataDir},
			{"created": created, "created_by": "cmd/release: /usr/local/bin/quarry " + o.Version},
		},
	}
}

func imageLabels(o options) map[string]string {
	return map[string]string{
		"org.opencontainers.image.title":    "quarry",
		"org.opencontainers.image.version":  o.Version,
		"org.opencontainers.image.revision": o.Commit,
		"org.opencontainers.image.created":  o.Date.Format(time.RFC3339),
	}
}

// writeImage writes the OCI layout of the linux targets as one tar.
func writeImage(o options, ts []target, bins map[target]string, path string) error {
	be, err := baseEntries(o)
	if err != nil {
		return err
	}
	base, baseDiff, err := layer(be, o.Date)
	if err != nil {
		return err
	}
	blobs := []blob{base}
	var manifests []descriptor
	for _, t := range ts {
		bl, binDiff, err := layer([]entry{{Name: "usr/local/bin/quarry", Src: bins[t], Mode: 0o755}}, o.Date)
		if err != nil {
			return err
		}
		cfg, err := jsonBlob(mtConfig, imageConfig(o, t, []string{baseDiff, binDiff}))
		if err != nil {
			return err
		}
		man, err := jsonBlob(mtManifest, map[string]any{
			"schemaVersion": 2,
			"mediaType":     mtManifest,
			"config":        cfg.desc,
			"layers":        []descriptor{base.desc, bl.desc},
			"annotations":   imageLabels(o),
		})
		if err != nil {
			return err
		}
		man.desc.Platform = &platform{Architecture: t.Arch, OS: t.OS}
		blobs = append(blobs, bl, cfg, man)
		manifests = append(manifests, man.desc)
	}
	idx, err := jsonBlob(mtIndex, map[string]any{"schemaVersion": 2, "mediaType": mtIndex, "manifests": manifests})
	if err != nil {
		return err
	}
	blobs = append(blobs, idx)
	ref := strings.TrimPrefix(o.Version, "v")
	top := idx.desc
	top.Annotations = map[string]string{
		"org.opencontainers.image.ref.name": ref,
		"io.containerd.image.name":          "docker.io/library/quarry:" + ref,
	}
	layout, _ := json.Marshal(map[string]string{"imageLayoutVersion": "1.0.0"})
	index, err := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": mtIndex, "manifests": []descriptor{top}})
	if err != nil {
		return err
	}
	es := []entry{
		{Name: "oci-layout", Data: layout, Mode: 0o644},
		{Name: "index.json", Data: index, Mode: 0o644},
		{Name: "blobs", Dir: true, Mode: 0o755},
		{Name: "blobs/sha256", Dir: true, Mode: 0o755},
	}
	seen := map[string]bool{}
	for _, b := range blobs {
		if seen[b.desc.Digest] {
			continue
		}
		seen[b.desc.Digest] = true
		es = append(es, entry{Name: "blobs/sha256/" + strings.TrimPrefix(b.desc.Digest, "sha256:"), Data: b.data, Mode: 0o644})
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = writeTar(f, es, o.Date)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
