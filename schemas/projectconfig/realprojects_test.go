package projectconfig

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// realProject extracts folders of a real public Strapi project from a bare git mirror
// (QUARRY_REAL_PROJECTS, default /work/.mirror, as the workplace fetches them); the test
// skips where there is none.
func realProject(t *testing.T, mirror string, paths ...string) string {
	t.Helper()
	root := os.Getenv("QUARRY_REAL_PROJECTS")
	if root == "" {
		root = "/work/.mirror"
	}
	repo := filepath.Join(root, mirror, "repo")
	if _, err := os.Stat(repo); err != nil {
		t.Skipf("no mirror of %s under %s", mirror, root)
	}
	dir := t.TempDir()
	archive := exec.Command("git", append([]string{"-C", repo, "archive", "HEAD"}, paths...)...)
	var tarball bytes.Buffer
	archive.Stdout = &tarball
	if err := archive.Run(); err != nil {
		t.Skipf("git archive: %v", err)
	}
	untar := exec.Command("tar", "-x", "-C", dir)
	untar.Stdin = &tarball
	if out, err := untar.CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, out)
	}
	return dir
}

func TestRealProjectsConfig(t *testing.T) {
	t.Run("foodadvisor", func(t *testing.T) {
		dir := filepath.Join(realProject(t, "strapi+foodadvisor", "api/config", "api/package.json"), "api")
		p, err := Load(context.Background(), Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		ty, err := p.Typed()
		if err != nil {
			t.Fatal(err)
		}
		if ty.API.REST.MaxLimit.Int(0) != 100 || ty.Database.Connection.Client != "sqlite" ||
			ty.Database.Connection.Connection.Filename != ".tmp/data.db" || ty.Admin.APIToken.Salt == "" {
			t.Errorf("typed: %+v", ty)
		}
		if got := p.Unresolved["config/server.js"]; len(got) != 1 {
			t.Errorf("unresolved requires: %v", p.Unresolved)
		}
		t.Logf("unimplemented plugins: %v", p.UnimplementedPlugins(ty))
	})
	t.Run("corporate-starter", func(t *testing.T) {
		dir := filepath.Join(realProject(t, "strapi+nextjs-corporate-starter", "backend/config", "backend/package.json", "backend/.env.example"), "backend")
		env, _ := os.ReadFile(filepath.Join(dir, ".env.example"))
		if err := os.WriteFile(filepath.Join(dir, ".env"), env, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := Load(context.Background(), Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		ty, err := p.Typed()
		if err != nil {
			t.Fatal(err)
		}
		if ty.Admin.APIToken.Salt != "tobemodified" || ty.Server.Host != "localhost" || ty.Server.Port.Int(0) != 1337 ||
			ty.Database.Connection.Connection.Filename != filepath.Join(dir, ".tmp", "data.db") {
			t.Errorf("typed: %+v", ty)
		}
		if keys := p.Value("server").(map[string]any)["app"].(map[string]any)["keys"]; !reflect.DeepEqual(keys, []any{"toBeModified1", "toBeModified2"}) {
			t.Errorf("APP_KEYS: %v", keys)
		}
		if got := p.UnimplementedPlugins(ty); len(got) != 0 {
			t.Errorf("unimplemented plugins: %v (i18n, users-permissions, seo and cloud need no warning)", got)
		}
	})
}
