package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"debug/buildinfo"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The release run is shared by the tests: one linux/amd64 build (the host's when it is
// linux/arm64), its archive, SBOM, checksums and image.
var (
	releaseOnce sync.Once
	releaseRes  *result
	releaseOpts options
	releaseErr  error
	releaseDir  string
)

func testRelease(t *testing.T) (*result, options) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the release test runs the linux binary it builds")
	}
	releaseOnce.Do(func() {
		releaseDir, releaseErr = os.MkdirTemp("", "quarry-release-test")
		if releaseErr != nil {
			return
		}
		ctx := context.Background()
		// QUARRY_TEST_RELEASE_TARGETS=all (or a list) cross-builds more; each archive is checked.
		targets := os.Getenv("QUARRY_TEST_RELEASE_TARGETS")
		if targets == "all" {
			targets = targetList(allTargets)
		}
		if targets == "" {
			targets = "linux/" + runtime.GOARCH
		} else if !strings.Contains(targets, "linux/"+runtime.GOARCH) {
			targets = "linux/" + runtime.GOARCH + "," + targets
		}
		releaseOpts, releaseErr = defaults(ctx, "../..", filepath.Join(releaseDir, "dist"), "", targets)
		if releaseErr != nil {
			return
		}
		releaseOpts.Image = true
		releaseRes, releaseErr = release(ctx, releaseOpts)
	})
	if releaseErr != nil {
		t.Fatal(releaseErr)
	}
	return releaseRes, releaseOpts
}

func TestMain(m *testing.M) {
	code := m.Run()
	if releaseDir != "" {
		os.RemoveAll(releaseDir)
	}
	os.Exit(code)
}

// The archive carries a static, stripped binary stamped with the version, the README and the
// example app, and that binary serves the example app; SHA256SUMS covers every artifact and
// the SBOM lists the linked modules.
func TestReleaseArchive(t *testing.T) {
	res, o := testRelease(t)
	tgt := target{"linux", runtime.GOARCH}

	// SHA256SUMS: every artifact, with the right sum.
	sums, err := os.ReadFile(res.Sums)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", line)
		}
		listed[name] = sum
	}
	for _, a := range res.Artifacts {
		got, err := fileSHA256(a.Path)
		if err != nil {
			t.Fatal(err)
		}
		if listed[filepath.Base(a.Path)] != got {
			t.Errorf("SHA256SUMS: %s has %q, the file %s", filepath.Base(a.Path), listed[filepath.Base(a.Path)], got)
		}
	}
	if len(listed) != len(res.Artifacts) || len(res.Artifacts) != 2*len(o.Targets)+1 {
		t.Errorf("artifacts %v, SHA256SUMS %v", res.Artifacts, listed)
	}
	for _, tg := range o.Targets {
		checkArchiveBinary(t, o, tg)
	}

	// The archive.
	top := fmt.Sprintf("quarry_%s_%s_%s", o.Version, tgt.OS, tgt.Arch)
	dir := t.TempDir()
	untarGz(t, filepath.Join(o.Out, top+".tar.gz"), dir)
	root := filepath.Join(dir, top)
	for _, f := range []string{"quarry", "README.md", noticesName, "docs", "examples/blog/config", "examples/blog/src"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("archive lacks %s: %v", f, err)
		}
	}
	// The notices: every module the binary links, each with its licence text.
	notices, err := os.ReadFile(filepath.Join(root, noticesName))
	if err != nil {
		t.Fatal(err)
	}
	bi, err := buildinfo.ReadFile(filepath.Join(root, "quarry"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range bi.Deps {
		if !strings.Contains(string(notices), "\n"+m.Path+" "+m.Version+"\n") {
			t.Errorf("%s does not list %s %s", noticesName, m.Path, m.Version)
		}
	}
	if n := strings.Count(string(notices), "\n--- "); n < len(bi.Deps) {
		t.Errorf("%s has %d licence texts for %d modules", noticesName, n, len(bi.Deps))
	}
	bin := filepath.Join(root, "quarry")
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the release binary asks for a dynamic loader: not static")
		}
	}
	if f.Section(".symtab") != nil || f.Section(".debug_info") != nil {
		t.Error("the release binary has a symbol table or DWARF: not stripped")
	}
	f.Close()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("quarry %s: %v\n%s", args[0], err, out)
		}
		for _, want := range []string{"quarry " + o.Version, "commit " + o.Commit, "build time " + o.Date.Format(time.RFC3339)} {
			if !strings.Contains(string(out), want) {
				t.Errorf("quarry %s lacks %q:\n%s", args[0], want, out)
			}
		}
	}

	// The SBOM.
	var bom cdxBOM
	data, err := os.ReadFile(filepath.Join(o.Out, top+".cdx.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &bom); err != nil {
		t.Fatal(err)
	}
	if bom.BOMFormat != "CycloneDX" || bom.Metadata.Component.Name != "github.com/quarrycms/quarry" || bom.Metadata.Component.Version != o.Version {
		t.Errorf("SBOM header: %+v", bom.Metadata.Component)
	}
	purls := map[string]bool{}
	for _, c := range bom.Components {
		purls[c.PURL[:strings.LastIndex(c.PURL, "@")]] = true
	}
	for _, m := range []string{"pkg:golang/modernc.org/sqlite", "pkg:golang/github.com/jackc/pgx/v5", "pkg:golang/stdlib"} {
		if !purls[m] {
			t.Errorf("SBOM lacks %s", m)
		}
	}

	// The binary serves the example app from the archive.
	port := freePort(t)
	cmd := exec.Command(bin, "serve", "--app", filepath.Join(root, "examples", "blog"), "--port", fmt.Sprint(port), "--host", "127.0.0.1")
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	var logs syncBuilder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	waitHealth(t, port, &logs)
}

// checkArchiveBinary unpacks one target's archive and checks its binary is an executable of
// that platform, statically linked where the format says so.
func checkArchiveBinary(t *testing.T, o options, tg target) {
	t.Helper()
	top := fmt.Sprintf("quarry_%s_%s_%s", o.Version, tg.OS, tg.Arch)
	dir := t.TempDir()
	if tg.OS == "windows" {
		zr, err := zip.OpenReader(filepath.Join(o.Out, top+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		var found bool
		for _, f := range zr.File {
			if f.Name != top+"/quarry.exe" {
				continue
			}
			found = true
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(r)
			r.Close()
			pf, err := pe.NewFile(bytes.NewReader(data))
			if err != nil || pf.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
				t.Errorf("%s: quarry.exe is not a windows/amd64 executable (%v)", top, err)
			}
		}
		if !found {
			t.Errorf("%s.zip lacks quarry.exe", top)
		}
		return
	}
	untarGz(t, filepath.Join(o.Out, top+".tar.gz"), dir)
	bin := filepath.Join(dir, top, "quarry")
	switch tg.OS {
	case "linux":
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatalf("%s: %v", top, err)
		}
		defer f.Close()
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[tg.Arch]
		if f.Machine != want {
			t.Errorf("%s: ELF machine %v", top, f.Machine)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s: the binary asks for a dynamic loader: not static", top)
			}
		}
	case "darwin":
		f, err := macho.Open(bin)
		if err != nil {
			t.Fatalf("%s: %v", top, err)
		}
		defer f.Close()
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[tg.Arch]
		if f.Cpu != want {
			t.Errorf("%s: Mach-O CPU %v", top, f.Cpu)
		}
	}
}

func untarGz(t *testing.T, path, dir string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := untar(zr, dir, false); err != nil {
		t.Fatal(err)
	}
}

// untar unpacks a tar stream; owners keeps the entries' uid/gid (an image's rootfs).
func untar(r io.Reader, dir string, owners bool) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(p, filepath.Clean(dir)+string(filepath.Separator)) {
			return fmt.Errorf("entry %q leaves the folder", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			if err := os.Chmod(p, os.FileMode(h.Mode&0o777)|modeBits(h.Mode)); err != nil {
				return err
			}
		case tar.TypeSymlink:
			os.Remove(p)
			if err := os.Symlink(h.Linkname, p); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			out, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode&0o777))
			if err != nil {
				return err
			}
			_, err = io.Copy(out, tr)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("entry %q: unexpected type %c", h.Name, h.Typeflag)
		}
		if owners {
			if err := os.Lchown(p, h.Uid, h.Gid); err != nil {
				return err
			}
		}
	}
}

func modeBits(m int64) os.FileMode {
	if m&0o1000 != 0 {
		return os.ModeSticky
	}
	return 0
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitHealth waits up to a minute for /_health to answer 2xx.
func waitHealth(t *testing.T, port int, logs fmt.Stringer) {
	t.Helper()
	url := fmt.Sprintf("http://127.0.0.1:%d/_health", port)
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		res, err := http.Get(url)
		if err == nil {
			res.Body.Close()
			if res.StatusCode/100 == 2 {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s did not answer within a minute; logs:\n%s", url, logs)
}

// ociRuntime is the OCI runtime the image test uses: QUARRY_TEST_OCI_RUNTIME, else runc, else
// crun (crun 1.8 refuses hosts with cgroups in hybrid mode, runc does not).
func ociRuntime(t *testing.T) string {
	t.Helper()
	if v := os.Getenv("QUARRY_TEST_OCI_RUNTIME"); v != "" {
		return v
	}
	for _, n := range []string{"runc", "crun"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	t.Skip("no OCI runtime (Debian's runc or crun; .ci/run installs runc)")
	return ""
}

// The image runs under an OCI runtime without a daemon: unpacked from the OCI layout into a
// bundle, it refuses to start in production without JWT_SECRET (saying how to set it), and
// with one it serves the example app as the non-root user, with the database and secrets in
// the data volume, which a second container reuses.
func TestImageRuns(t *testing.T) {
	res, _ := testRelease(t)
	rt := ociRuntime(t)
	if os.Geteuid() != 0 {
		t.Skip("running a container with " + rt + " needs root here")
	}
	bundle := t.TempDir()
	cfg := unpackImage(t, res.Image, runtime.GOARCH, filepath.Join(bundle, "rootfs"))
	if cfg.Config.User != "65532:65532" {
		t.Errorf("image user %q", cfg.Config.User)
	}
	if _, ok := cfg.Config.Volumes["/data"]; !ok || len(cfg.Config.Volumes) != 1 {
		t.Errorf("image volumes %v, want /data only", cfg.Config.Volumes)
	}
	if !contains(cfg.Config.Env, "NODE_ENV=production") {
		t.Errorf("image env %v lacks NODE_ENV=production", cfg.Config.Env)
	}
	data := t.TempDir() // the named volume
	if err := os.Chown(data, 65532, 65532); err != nil {
		t.Fatal(err)
	}

	// Without JWT_SECRET: refused, saying how to set it.
	out, err := runContainer(t, rt, bundle, cfg, data, freePort(t), nil, nil, nil)
	if err == nil || !strings.Contains(out, "JWT_SECRET is required in production") {
		t.Errorf("production without JWT_SECRET: %v\n%s", err, out)
	}

	// A token made by the image's own binary, then an upload; a second container on the same
	// volume has the database, the token's salt and the file.
	uploadAndRestart(t, rt, bundle, cfg, data, []string{"JWT_SECRET=image-test-secret"})
	for _, f := range []string{"data.db", "api-token-salt"} {
		if _, err := os.Stat(filepath.Join(data, f)); err != nil {
			t.Errorf("the data volume lacks %s: %v", f, err)
		}
	}

	// On PostgreSQL (as in docs/docker.md's compose file): the uploads stay in the volume.
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	if admin == "" {
		t.Log("QUARRY_TEST_POSTGRES_URL is not set: the image on PostgreSQL is not run")
		return
	}
	pgData := t.TempDir()
	if err := os.Chown(pgData, 65532, 65532); err != nil {
		t.Fatal(err)
	}
	uploadAndRestart(t, rt, bundle, cfg, pgData, []string{"JWT_SECRET=image-test-secret", "API_TOKEN_SALT=image-test-salt",
		"DATABASE_CLIENT=postgres", "DATABASE_URL=" + freshPostgres(t, admin)})
	if _, err := os.Stat(filepath.Join(pgData, "data.db")); err == nil {
		t.Error("on PostgreSQL the volume has a SQLite file")
	}
}

// uploadAndRestart creates a full-access token with the image's binary, uploads a file
// through one container and reads it back through a second one on the same volume.
func uploadAndRestart(t *testing.T, rt, bundle string, cfg imageCfg, data string, env []string) {
	t.Helper()
	out, err := runContainer(t, rt, bundle, cfg, data, freePort(t), env,
		[]string{"/usr/local/bin/quarry", "tokens", "create", "--app", "/app", "--name", "ci", "--type", "full-access"}, nil)
	if err != nil {
		t.Fatalf("tokens create in the container: %v\n%s", err, out)
	}
	token := strings.TrimSpace(out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:])
	var fileURL string
	runContainer(t, rt, bundle, cfg, data, freePort(t), env, nil, func(base string) {
		fileURL = uploadFile(t, base, token)
	})
	runContainer(t, rt, bundle, cfg, data, freePort(t), env, nil, func(base string) {
		res, err := http.Get(base + fileURL)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(body) != "kept in the volume\n" {
			t.Errorf("after a restart, GET %s: %d %q", fileURL, res.StatusCode, body)
		}
	})
	if _, err := os.Stat(filepath.Join(data, "uploads", strings.TrimPrefix(fileURL, "/uploads/"))); err != nil {
		t.Errorf("the upload is not in the volume: %v", err)
	}
}

// freshPostgres creates a uniquely named database and drops it when the test ends.
func freshPostgres(t *testing.T, admin string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("quarry_image_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		conn.Close(ctx)
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// uploadFile posts a text file to /api/upload and returns its URL.
func uploadFile(t *testing.T, base, token string) string {
	t.Helper()
	var body strings.Builder
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("files", "kept.txt")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(fw, "kept in the volume\n")
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/upload", strings.NewReader(body.String()))
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var files []struct{ URL string }
	if res.StatusCode != 200 || json.Unmarshal(b, &files) != nil || len(files) != 1 || !strings.HasPrefix(files[0].URL, "/uploads/") {
		t.Fatalf("upload: %d %s", res.StatusCode, b)
	}
	return files[0].URL
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

type imageCfg struct {
	Config struct {
		User       string
		Env        []string
		Entrypoint []string
		Cmd        []string
		WorkingDir string
		Volumes    map[string]struct{}
	} `json:"config"`
}

// unpackImage reads the OCI layout tar and unpacks the manifest of arch into rootfs.
func unpackImage(t *testing.T, path, arch, rootfs string) imageCfg {
	t.Helper()
	blobs := map[string][]byte{}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(bufio.NewReader(f))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			blobs[h.Name] = b
		}
	}
	f.Close()
	if string(blobs["oci-layout"]) != `{"imageLayoutVersion":"1.0.0"}` {
		t.Errorf("oci-layout %q", blobs["oci-layout"])
	}
	get := func(d descriptor, v any) []byte {
		t.Helper()
		b, ok := blobs["blobs/sha256/"+strings.TrimPrefix(d.Digest, "sha256:")]
		if !ok || int64(len(b)) != d.Size || newBlob("", b).desc.Digest != d.Digest {
			t.Fatalf("blob %s missing or not matching its digest and size", d.Digest)
		}
		if v != nil {
			if err := json.Unmarshal(b, v); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	type index struct{ Manifests []descriptor }
	var top, idx index
	if err := json.Unmarshal(blobs["index.json"], &top); err != nil || len(top.Manifests) != 1 {
		t.Fatalf("index.json: %v %s", err, blobs["index.json"])
	}
	get(top.Manifests[0], &idx)
	var man struct {
		Config descriptor
		Layers []descriptor
	}
	found := false
	for _, m := range idx.Manifests {
		if m.Platform != nil && m.Platform.OS == "linux" && m.Platform.Architecture == arch {
			get(m, &man)
			found = true
		}
	}
	if !found {
		t.Fatalf("no linux/%s manifest in %+v", arch, idx.Manifests)
	}
	var cfg imageCfg
	get(man.Config, &cfg)
	for _, l := range man.Layers {
		zr, err := gzip.NewReader(strings.NewReader(string(get(l, nil))))
		if err != nil {
			t.Fatal(err)
		}
		if err := untar(zr, rootfs, true); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// runContainer runs a fresh container on the host's network with the data folder mounted at
// /data: args, else the image's command. With during, it waits for /_health, checks the
// process's user, calls during with the base URL and stops the container; otherwise it waits
// for the container to exit and returns its output.
func runContainer(t *testing.T, rt, bundle string, cfg imageCfg, data string, port int, env, args []string, during func(base string)) (string, error) {
	t.Helper()
	os.Remove(filepath.Join(bundle, "config.json"))
	if out, err := exec.Command(rt, "spec", "--bundle", bundle).CombinedOutput(); err != nil {
		t.Fatalf("%s spec: %v\n%s", rt, err, out)
	}
	raw, err := os.ReadFile(filepath.Join(bundle, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	proc := spec["process"].(map[string]any)
	proc["terminal"] = false
	proc["args"] = append(append([]string{}, cfg.Config.Entrypoint...), cfg.Config.Cmd...)
	if args != nil {
		proc["args"] = args
	}
	e := append([]string{}, cfg.Config.Env...)
	proc["env"] = append(append(e, fmt.Sprintf("PORT=%d", port), "LOG_LEVEL=warn"), env...)
	proc["cwd"] = cfg.Config.WorkingDir
	var uid, gid int
	fmt.Sscanf(cfg.Config.User, "%d:%d", &uid, &gid)
	proc["user"] = map[string]any{"uid": uid, "gid": gid}
	spec["root"] = map[string]any{"path": "rootfs", "readonly": true}
	spec["mounts"] = append(spec["mounts"].([]any),
		map[string]any{"destination": "/data", "type": "bind", "source": data, "options": []string{"rbind", "rw"}},
		map[string]any{"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": []string{"nosuid", "nodev", "mode=1777"}},
	)
	linux := spec["linux"].(map[string]any)
	var ns []any
	for _, n := range linux["namespaces"].([]any) {
		if n.(map[string]any)["type"] != "network" { // the host's network: the test reaches the port
			ns = append(ns, n)
		}
	}
	linux["namespaces"] = ns
	raw, _ = json.Marshal(spec)
	if err := os.WriteFile(filepath.Join(bundle, "config.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprintf("quarry-test-%d-%d", os.Getpid(), port)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, rt, "run", "--bundle", bundle, id)
	var logs syncBuilder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if during == nil {
		err := cmd.Run()
		exec.Command(rt, "delete", "--force", id).Run()
		return logs.String(), err
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		exec.Command(rt, "kill", id, "TERM").Run()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			exec.Command(rt, "kill", id, "KILL").Run()
			<-done
		}
		exec.Command(rt, "delete", "--force", id).Run()
	}()
	waitHealth(t, port, &logs)
	stateOut, err := exec.Command(rt, "state", id).Output()
	if err != nil {
		t.Fatalf("%s state: %v", rt, err)
	}
	var state struct{ Pid int }
	json.Unmarshal(stateOut, &state)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", state.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "Uid:") && strings.Fields(line)[1] != "65532" {
			t.Errorf("the container's process runs as %q, want uid 65532", line)
		}
	}
	during(fmt.Sprintf("http://127.0.0.1:%d", port))
	return logs.String(), nil
}

// syncBuilder is a strings.Builder the runtime's output goroutines and the test share.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The Dockerfile, for users with Docker, builds the image this tool writes: same user, same
// environment, one volume, the app's .tmp linked to it.
func TestDockerfileMatchesImage(t *testing.T) {
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(data)
	for _, e := range imageEnv {
		if strings.HasPrefix(e, "PATH=") {
			continue
		}
		if !strings.Contains(df, " "+e) {
			t.Errorf("the Dockerfile does not set %s", e)
		}
	}
	for _, want := range []string{
		fmt.Sprintf("USER %d:%d", imageUID, imageUID),
		`VOLUME ["` + dataDir + `"]`,
		"ln -s " + dataDir + " /out/app/.tmp",
		`CMD ["serve", "--app", "/app"]`,
	} {
		if !strings.Contains(df, want) {
			t.Errorf("the Dockerfile lacks %q", want)
		}
	}
}
