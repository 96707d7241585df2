package routes_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas/jseval"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/transport"
)

// TestRealProjectsRoutes reads the route and controller files of real public Strapi
// projects from their bare git mirrors (QUARRY_REAL_PROJECTS, default /work/.mirror); it
// skips where there are none.
func TestRealProjectsRoutes(t *testing.T) {
	root := os.Getenv("QUARRY_REAL_PROJECTS")
	if root == "" {
		root = "/work/.mirror"
	}
	for _, c := range []struct{ mirror, app string }{
		{"strapi+foodadvisor", "api"}, {"strapi+nextjs-corporate-starter", "backend"},
	} {
		t.Run(c.app, func(t *testing.T) {
			repo := filepath.Join(root, c.mirror, "repo")
			if _, err := os.Stat(repo); err != nil {
				t.Skipf("no mirror %s", repo)
			}
			dir := t.TempDir()
			var tarball bytes.Buffer
			archive := exec.Command("git", "-C", repo, "archive", "HEAD", c.app+"/src/api")
			archive.Stdout = &tarball
			if err := archive.Run(); err != nil {
				t.Skipf("git archive: %v", err)
			}
			untar := exec.Command("tar", "-x", "-C", dir)
			untar.Stdin = &tarball
			if out, err := untar.CombinedOutput(); err != nil {
				t.Fatalf("tar: %v %s", err, out)
			}
			app := filepath.Join(dir, c.app)
			m, err := routes.Load(context.Background(), app, jseval.Options{Root: app})
			if err != nil {
				t.Fatal(err)
			}
			if !m.Files || len(m.Core) == 0 || len(m.Unreadable) > 0 {
				t.Errorf("model: %d core routers, unreadable %q", len(m.Core), m.Unreadable)
			}
			for uid, r := range m.Core {
				for _, a := range routes.CoreActions {
					if !r.Enabled(a) {
						t.Errorf("%s %s disabled", uid, a)
					}
				}
			}
			t.Logf("%d core routers, custom %v, overridden %v", len(m.Core), m.Custom, m.Overridden)
			// Every core route middleware Quarry deems query-only loads and runs on the
			// front-end's own query; the corporate starter's page-populate one must be among them.
			ran := map[string]string{}
			for uid, r := range m.Core {
				for action, cfg := range r.Config {
					if !routes.QueryOnly(app, cfg) {
						if len(cfg.Middlewares) > 0 {
							t.Logf("%s.%s: middlewares %v not run by Quarry", uid, action, cfg.Middlewares)
						}
						continue
					}
					ch, err := transport.LoadMiddlewareChain(app, cfg, jseval.Options{Root: app}, nil)
					if err != nil {
						t.Errorf("%s.%s: %v", uid, action, err)
						continue
					}
					q, err := ch.Rewrite(context.Background(), "filters[slug]=home&locale=en", map[string]string{"id": "1"})
					if err != nil {
						t.Errorf("%s.%s: %v", uid, action, err)
					}
					ran[uid+"."+action] = q
				}
			}
			if c.app == "backend" {
				q := ran["api::page.page.find"]
				if !strings.Contains(q, "populate%5BcontentSections%5D") || !strings.Contains(q, "filters%5Bslug%5D=home") || !strings.HasSuffix(q, "locale=en") {
					t.Errorf("page-populate-middleware: %q", q)
				}
			}
			t.Logf("middlewares run: %v", ran)
		})
	}
}
