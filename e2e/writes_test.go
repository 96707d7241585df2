package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestWritesAgree: every kind of write, made through REST on one server and through GraphQL
// on another (each on a fresh database), leaves the same rows and fires the same events —
// one write path behind both APIs. The writes give publishedAt where an entry is created,
// since REST publishes new entries and GraphQL (Strapi's entity service) creates drafts.
func TestWritesAgree(t *testing.T) {
	gql := func(q string) string {
		b, _ := json.Marshal(map[string]string{"query": q})
		return string(b)
	}
	const at = "2024-01-02T03:04:05.000Z"
	type pair struct {
		name          string
		method, path  string
		rest, graphql string
		public        bool
	}
	writes := []pair{
		{name: "create with components, a dynamic zone, relations and media", method: "POST", path: "/api/articles",
			rest: `{"data":{"title":"Hello world","publishedAt":"` + at + `","author":2,"tags":[3,1],"seo":{"metaTitle":"Hi","kind":"a","keywords":[{"word":"go"}]},` +
				`"links":[{"label":"docs","tag":2}],"blocks":[{"__component":"shared.quote","text":"q"},{"__component":"shared.link","label":"l"}],"cover":1,"gallery":[1]}}`,
			graphql: gql(`mutation { createArticle(data: {title: "Hello world", publishedAt: "` + at + `", author: 2, tags: [3, 1], seo: {metaTitle: "Hi", kind: a, keywords: [{word: "go"}]}, ` +
				`links: [{label: "docs", tag: 2}], blocks: [{__typename: "ComponentSharedQuote", text: "q"}, {__typename: "ComponentSharedLink", label: "l"}], cover: 1, gallery: [1]}) { data { id } } }`)},
		{name: "partial update", method: "PUT", path: "/api/articles/1",
			rest:    `{"data":{"title":"Renamed","tags":[1],"links":[{"label":"other"}]}}`,
			graphql: gql(`mutation { updateArticle(id: 1, data: {title: "Renamed", tags: [1], links: [{label: "other"}]}) { data { id } } }`)},
		{name: "null clearing", method: "PUT", path: "/api/articles/1",
			rest:    `{"data":{"summary":null,"seo":null,"cover":null,"author":null}}`,
			graphql: gql(`mutation { updateArticle(id: 1, data: {summary: null, seo: null, cover: null, author: null}) { data { id } } }`)},
		{name: "single type created", method: "PUT", path: "/api/homepage",
			rest:    `{"data":{"title":"Home","publishedAt":"` + at + `","seo":{"metaTitle":"Welcome"}}}`,
			graphql: gql(`mutation { updateHomepage(data: {title: "Home", publishedAt: "` + at + `", seo: {metaTitle: "Welcome"}}) { data { id } } }`)},
		{name: "single type updated", method: "PUT", path: "/api/homepage",
			rest:    `{"data":{"title":"Home 2"}}`,
			graphql: gql(`mutation { updateHomepage(data: {title: "Home 2"}) { data { id } } }`)},
		{name: "localized create", method: "POST", path: "/api/pages",
			rest:    `{"data":{"title":"About","views":1,"publishedAt":"` + at + `"}}`,
			graphql: gql(`mutation { createPage(data: {title: "About", views: 1, publishedAt: "` + at + `"}) { data { id } } }`)},
		{name: "a localization", method: "POST", path: "/api/pages/1/localizations",
			rest:    `{"locale":"fr","title":"A propos"}`,
			graphql: gql(`mutation { createPageLocalization(id: 1, locale: "fr", data: {title: "A propos"}) { data { id } } }`)},
		{name: "delete with its components", method: "DELETE", path: "/api/articles/1",
			graphql: gql(`mutation { deleteArticle(id: 1) { data { id } } }`)},
		{name: "single type deleted", method: "DELETE", path: "/api/homepage",
			graphql: gql(`mutation { deleteHomepage { data { id } } }`)},
		{name: "register", method: "POST", path: "/api/auth/local/register", public: true,
			rest:    `{"username":"jane","email":"jane@example.com","password":"Passw0rd!"}`,
			graphql: gql(`mutation { register(input: {username: "jane", email: "jane@example.com", password: "Passw0rd!"}) { jwt } }`)},
	}
	setup := []struct{ path, body string }{
		{"/api/writers", `{"data":{"name":"Ann"}}`},
		{"/api/writers", `{"data":{"name":"Bo"}}`},
		{"/api/tags", `{"data":{"name":"go"}}`},
		{"/api/tags", `{"data":{"name":"db"}}`},
		{"/api/tags", `{"data":{"name":"web"}}`},
	}
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			type side struct {
				s  *server
				rc *receiver
			}
			sides := [2]side{}
			for i := range sides {
				s := start(t, be, copyApp(t, "../examples/blog", `{}`))
				for _, w := range setup {
					if st, b := s.do(t, "POST", w.path, []byte(w.body)); st != 200 {
						t.Fatalf("setup %s: %d %s", w.path, st, b)
					}
				}
				if st, b := s.upload(t, "/api/upload", filepart("files", "a.png", "image/png", pngOf(t, 20, 10))); st != 200 {
					t.Fatalf("upload: %d %s", st, b)
				}
				rc := newReceiver(t, 0)
				addWebhook(t, s, rc.URL, allEvents...)
				sides[i] = side{s, rc}
			}
			time.Sleep(1100 * time.Millisecond) // webhooks are read at most once a second
			for _, w := range writes {
				var got [2][]storedEvent
				for i, sd := range sides {
					from := sd.rc.count()
					token := sd.s.Token
					if w.public {
						token = ""
					}
					var st int
					var b []byte
					if i == 0 {
						var body []byte
						if w.rest != "" {
							body = []byte(w.rest)
						}
						st, b = sd.s.doAs(t, token, w.method, w.path, body)
					} else {
						st, b = sd.s.doAs(t, token, "POST", "/graphql", []byte(w.graphql))
						if strings.Contains(string(b), `"errors"`) {
							st = 400
						}
					}
					if st != 200 {
						t.Fatalf("%s through %s: %d %s", w.name, []string{"REST", "GraphQL"}[i], st, b)
					}
					// Wait until the deliveries stop coming.
					got[i] = deliveries(t, sd.rc, from, -1)
				}
				if r, g := comparable(got[0]), comparable(got[1]); r != g {
					t.Errorf("%s: the events differ\nREST:\n%s\nGraphQL:\n%s", w.name, r, g)
				}
			}
			for _, table := range userTables(t, sides[0].s) {
				r, g := dumpTable(t, sides[0].s, table), dumpTable(t, sides[1].s, table)
				if r != g {
					t.Errorf("table %s differs\nREST:\n%s\nGraphQL:\n%s", table, r, g)
				}
			}
		})
	}
}

// timeValue is a timestamp value, which differs between the two servers.
var timeValue = regexp.MustCompile(`"(createdAt|updatedAt|publishedAt)":"[^"]*"`)

// comparable is a step's events as text, timestamps masked (a publishedAt the writes gave
// kept).
func comparable(evs []storedEvent) string {
	var lines []string
	for _, e := range evs {
		var p map[string]json.RawMessage
		json.Unmarshal(e.Payload, &p)
		body := string(p["entry"]) + string(p["media"])
		body = timeValue.ReplaceAllStringFunc(body, func(m string) string {
			if strings.Contains(m, "2024-01-02T03:04:05.000Z") {
				return m
			}
			k, _, _ := strings.Cut(m, ":")
			return k + `:"<time>"`
		})
		lines = append(lines, e.Event+" "+e.Model+" "+e.UID+" "+body)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// userTables lists the app's tables: not Strapi's own (tokens, settings, webhooks, the admin
// panel's), whose rows differ between two servers.
func userTables(t *testing.T, s *server) []string {
	t.Helper()
	db := openDB(t, s)
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if isPostgres(s) {
		q = `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`
	} else if !isSQLite(s) {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()`
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(n, "strapi_") && !strings.HasPrefix(n, "admin_") && !strings.HasPrefix(n, "quarry_") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// dumpTable is a table's rows in id order, the values that differ between two runs
// (timestamps, password hashes, uploaded files' random names) masked.
func dumpTable(t *testing.T, s *server, table string) string {
	t.Helper()
	db := openDB(t, s)
	rows, err := db.Query(rebind(s, `SELECT * FROM "`+table+`" ORDER BY 1`))
	if err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, c := range cols {
			v := vals[i]
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			switch c {
			case "created_at", "updated_at", "password", "hash", "url", "formats":
				if v != nil {
					v = "<masked>"
				}
			case "published_at":
				if v != nil && !strings.HasPrefix(fmt.Sprint(v), "2024-01-02") && fmt.Sprint(v) != "1704164645000" {
					v = "<now>"
				}
			}
			fmt.Fprintf(&b, "%s=%v ", c, v)
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
