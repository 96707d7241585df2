package e2e

import (
	"strings"
	"testing"
)

// quarry indexes prints the optional indexes as missing, --apply creates them (and they are in
// the database's catalog afterwards), the listing then shows them present, and a second
// --apply creates nothing.
func TestIndexesCommand(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyBlog(t)
			env := append(be.Env(t), "API_TOKEN_SALT=indexes-salt")
			want := []string{"quarry_articles_published_at", "quarry_articles_created_at", "quarry_articles_updated_at",
				"quarry_pages_locale_published_at", "quarry_articles_tags_links_inv"}
			// PostgreSQL with pg_trgm available also gets the trigram indexes of $containsi;
			// SQLite and MySQL have none a LIKE with a leading wildcard can use.
			// and the partial index of the published ids; both are forms Strapi's sync does not see.
			// and the sort indexes on (column + 0), which only Quarry's ORDER BY uses.
			const trgm, ids, sort = "quarry_articles_title_trgm", "quarry_articles_published_ids", "quarry_articles_publish_date_sort"
			kept := map[string]bool{}
			if be.Name == "postgres" {
				want = append(want, trgm, ids, sort)
				kept[trgm], kept[ids], kept[sort] = true, true, true
			}

			out := quarry(t, env, "indexes", "--app", app)
			if !strings.Contains(out, "drops indexes its layout does not define") {
				t.Errorf("listing lacks the warning about Strapi's schema sync:\n%s", out)
			}
			for _, n := range want {
				fate := "dropped by Strapi's schema sync"
				if kept[n] {
					fate = "kept by Strapi's schema sync"
				}
				if !lineWith(out, n, "missing", fate, "measured") {
					t.Errorf("listing before --apply: %s not shown missing, %s, with its measured effect:\n%s", n, fate, out)
				}
			}
			if be.Name != "postgres" && (strings.Contains(out, trgm) || strings.Contains(out, ids) || strings.Contains(out, "_sort")) {
				t.Errorf("a PostgreSQL-only index offered on %s:\n%s", be.Name, out)
			}
			if !strings.Contains(out, "strictSyncSchema") {
				t.Errorf("listing does not say when Strapi's sync drops them:\n%s", out)
			}

			out = quarry(t, env, "indexes", "--app", app, "--apply")
			for _, n := range want {
				if !strings.Contains(out, "created "+n+" ") {
					t.Errorf("--apply did not create %s:\n%s", n, out)
				}
			}
			db := openDB(t, &server{Env: env})
			q := map[string]string{
				"sqlite":   `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?`,
				"postgres": `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1`,
				"mysql":    `SELECT count(DISTINCT index_name) FROM information_schema.statistics WHERE table_schema = database() AND index_name = ?`,
			}[be.Name]
			for _, n := range want {
				var c int
				if err := db.QueryRow(q, n).Scan(&c); err != nil || c != 1 {
					t.Errorf("index %s after --apply: count %d, %v", n, c, err)
				}
			}

			out = quarry(t, env, "indexes", "--app", app)
			if strings.Contains(out, "; -- missing;") {
				t.Errorf("listing after --apply still shows missing indexes:\n%s", out)
			}
			out = quarry(t, env, "indexes", "--app", app, "--apply")
			if strings.Contains(out, "created ") || !strings.Contains(out, "nothing to create") {
				t.Errorf("second --apply is not a no-op:\n%s", out)
			}
		})
	}
}

// lineWith reports whether one line of out holds every part.
func lineWith(out string, parts ...string) bool {
	for _, l := range strings.Split(out, "\n") {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(l, p)
		}
		if ok {
			return true
		}
	}
	return false
}
