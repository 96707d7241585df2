package transfer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/transport/app"
	"github.com/quarrycms/quarry/transport/transfer/archive"
)

// openBlog opens a copy-free SQLite database of examples/blog.
func openBlog(t testing.TB) *app.App {
	t.Helper()
	db := filepath.Join(t.TempDir(), "data.db")
	env := map[string]string{"DATABASE_CLIENT": "sqlite", "DATABASE_FILENAME": db, "API_TOKEN_SALT": "test"}
	a, err := app.Open(context.Background(), "../../examples/blog", func(k string) string { return env[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.DB.Close() })
	return a
}

// archiveOf writes an archive with a's own schemas (as export writes them) and the given
// entity, link and configuration lines.
func archiveOf(t *testing.T, a *app.App, entities, links []string) *archive.Archive {
	t.Helper()
	w, err := archive.Create(filepath.Join(t.TempDir(), "a"), archive.WriteOptions{Compress: true})
	if err != nil {
		t.Fatal(err)
	}
	ex := &Export{DB: a.DB, Schema: a.Schema, Filter: Filter{Only: []string{GroupConfig}}}
	if _, err := ex.Run(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	for _, l := range entities {
		w.Lines(archive.Entities).WriteRaw([]byte(l))
	}
	for _, l := range links {
		w.Lines(archive.Links).WriteRaw([]byte(l))
	}
	if err := w.Close(ex.Metadata()); err != nil {
		t.Fatal(err)
	}
	ar, err := archive.Open(w.Path, "")
	if err != nil {
		t.Fatal(err)
	}
	return ar
}

func rows(t *testing.T, a *app.App, q string) string {
	t.Helper()
	r, err := a.DB.Queryx(q)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for r.Next() {
		vals, err := r.SliceScan()
		if err != nil {
			t.Fatal(err)
		}
		var cells []string
		for _, v := range vals {
			switch x := v.(type) {
			case []byte:
				cells = append(cells, string(x))
			case nil:
				cells = append(cells, "NULL")
			default:
				cells = append(cells, strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(fmtAny(x), "\n", " "), "  ", " ")))
			}
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return strings.Join(out, "; ")
}

func fmtAny(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return itoa(x)
	case float64:
		return itoa(int64(x))
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return "?"
}

func itoa(n int64) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

var blogEntities = []string{
	`{"type":"api::writer.writer","id":7,"data":{"name":"Ann","bio":null,"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z"}}`,
	`{"type":"api::tag.tag","id":9,"data":{"name":"go","createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z"}}`,
	`{"type":"api::article.article","id":5,"data":{"title":"Second","views":3,"big":"9007199254740993","publishDate":"2024-01-15","startTime":"10:20:30.123","eventAt":"2024-01-15T08:20:30.000Z","featured":true,"meta":{"b":1,"a":[1,2]},"createdAt":"2024-01-02T00:00:00.000Z","updatedAt":"2024-01-02T00:00:00.000Z","publishedAt":null,"seo":{"id":40,"metaTitle":"SEO","keywords":[{"id":8,"word":"k1"},{"id":6,"word":"k2"}]},"links":[{"id":31,"label":"L1"},{"id":30,"label":"L2"}],"blocks":[{"__component":"shared.quote","id":4,"text":"Q"},{"__component":"shared.link","id":32,"label":"B"}],"unknown":"dropped"}}`,
	`{"type":"api::article.article","id":3,"data":{"title":"First","views":1,"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z","publishedAt":"2024-01-01T00:00:00.000Z","seo":null,"links":[],"blocks":[]}}`,
	`{"type":"admin::user","id":1,"data":{"firstname":"ignored"}}`,
}

var blogLinks = []string{
	`{"kind":"relation.basic","relation":"manyToOne","left":{"type":"api::article.article","field":"author","ref":5},"right":{"type":"api::writer.writer","field":"articles","ref":7,"pos":1}}`,
	`{"kind":"relation.basic","relation":"manyToMany","left":{"type":"api::article.article","field":"tags","ref":3,"pos":1},"right":{"type":"api::tag.tag","ref":9}}`,
	`{"kind":"relation.circular","relation":"manyToMany","left":{"type":"api::article.article","field":"related","ref":5,"pos":1},"right":{"type":"api::article.article","ref":3}}`,
	`{"kind":"relation.basic","relation":"oneToOne","left":{"type":"shared.link","field":"tag","ref":30},"right":{"type":"api::tag.tag","ref":9}}`,
	`{"kind":"relation.basic","relation":"oneToOne","left":{"type":"api::article.article","field":"createdBy","ref":5},"right":{"type":"admin::user","ref":1}}`,
}

// TestImport: entries get new ids in archive order (Strapi's import), components are created
// first and linked in order, links are made between the new ids (a component's too), values
// keep their types, unknown attributes and ignored types are left out.
func TestImport(t *testing.T) {
	a := openBlog(t)
	ctx := context.Background()
	im := &Import{DB: a.DB, Schema: a.Schema}
	res, err := im.Run(ctx, archiveOf(t, a, blogEntities, blogLinks))
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts[archive.Entities] != 4 || res.Counts[archive.Links] != 4 {
		t.Errorf("counts %v", res.Counts)
	}
	checks := []struct{ q, want string }{
		{`SELECT id, title, views, big, featured, meta FROM articles ORDER BY id`, `1|Second|3|9007199254740993|1|{"b":1,"a":[1,2]}; 2|First|1|NULL|0|NULL`},
		{`SELECT id, name FROM writers`, `1|Ann`},
		{`SELECT entity_id, component_type, field, "order" FROM articles_components ORDER BY id`,
			`1|shared.seo|seo|NULL; 1|shared.link|links|1; 1|shared.link|links|2; 1|shared.quote|blocks|1; 1|shared.link|blocks|2`},
		{`SELECT id, word FROM components_shared_keywords ORDER BY id`, `1|k1; 2|k2`},
		{`SELECT id, label FROM components_shared_links ORDER BY id`, `1|L1; 2|L2; 3|B`},
		{`SELECT article_id, writer_id, article_order FROM articles_author_links`, `1|1|1`},
		{`SELECT article_id, tag_id, tag_order FROM articles_tags_links`, `2|1|1`},
		{`SELECT article_id, inv_article_id FROM articles_related_links`, `1|2`},
		{`SELECT link_id, tag_id FROM components_shared_links_tag_links`, `2|1`},
	}
	for _, c := range checks {
		if got := rows(t, a, c.q); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.q, got, c.want)
		}
	}

	// A failing import (a value its column cannot hold) leaves everything as it was.
	before := rows(t, a, `SELECT id, title FROM articles ORDER BY id`)
	bad := append(append([]string{}, blogEntities...), `{"type":"api::article.article","id":6,"data":{"title":"Bad","views":"many"}}`)
	if _, err := im.Run(ctx, archiveOf(t, a, bad, nil)); err == nil || !strings.Contains(err.Error(), "views") {
		t.Fatalf("bad value: %v", err)
	}
	if got := rows(t, a, `SELECT id, title FROM articles ORDER BY id`); got != before {
		t.Errorf("a failed import changed the rows: %s (was %s)", got, before)
	}

	// An interrupted import too.
	cctx, cancel := context.WithCancel(ctx)
	n := 0
	im.Report = func(e Event) {
		if e.Stage == archive.Entities {
			if n++; n == 2 {
				cancel()
			}
		}
	}
	if _, err := im.Run(cctx, archiveOf(t, a, blogEntities, blogLinks)); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted import: %v", err)
	}
	if got := rows(t, a, `SELECT id, title FROM articles ORDER BY id`); got != before {
		t.Errorf("an interrupted import changed the rows: %s (was %s)", got, before)
	}
}

// TestImportSchemaDiff: an archive whose schemas differ is refused naming type and attribute,
// and --force imports what fits.
func TestImportSchemaDiff(t *testing.T) {
	a := openBlog(t)
	tag, _ := a.Schema.Models["api::tag.tag"].Attr("name")
	tag.Declared = []byte(`{"type":"text"}`)
	ar := archiveOf(t, a, blogEntities, nil)
	tag.Declared = []byte(`{"type":"string","required":true}`)
	_, err := (&Import{DB: a.DB, Schema: a.Schema}).Run(context.Background(), ar)
	var se *SchemaError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "api::tag.tag.attributes.name.type has a different data type") {
		t.Fatalf("schema diff: %v", err)
	}
	if res, err := (&Import{DB: a.DB, Schema: a.Schema, Force: true}).Run(context.Background(), ar); err != nil || len(res.Diffs) != 1 {
		t.Fatalf("forced: %v %v", res, err)
	}
}

// TestExportRoundTrip: what export writes, import reads back to the same rows (ids renumbered
// from 1 on an emptied database stay what they were when they had no gaps).
func TestExportRoundTrip(t *testing.T) {
	a := openBlog(t)
	ctx := context.Background()
	if _, err := (&Import{DB: a.DB, Schema: a.Schema}).Run(ctx, archiveOf(t, a, blogEntities, blogLinks)); err != nil {
		t.Fatal(err)
	}
	q := `SELECT a.id, a.title, a.meta, l.writer_id FROM articles a LEFT JOIN articles_author_links l ON l.article_id = a.id ORDER BY a.id`
	want := rows(t, a, q)
	w, err := archive.Create(filepath.Join(t.TempDir(), "x"), archive.WriteOptions{Compress: true, Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	ex := &Export{DB: a.DB, Schema: a.Schema}
	if _, err := ex.Run(ctx, w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ex.Metadata()); err != nil {
		t.Fatal(err)
	}
	b := openBlog(t)
	ar, err := archive.Open(w.Path, "k")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&Import{DB: b.DB, Schema: b.Schema}).Run(ctx, ar); err != nil {
		t.Fatal(err)
	}
	if got := rows(t, b, q); got != want {
		t.Errorf("round trip\n got %s\nwant %s", got, want)
	}
	if _, err := os.Stat(w.Path); err != nil {
		t.Fatal(err)
	}
}

// TestImportComponentOrder: the items of a dynamic zone are inserted in the order Strapi's
// import inserts them (recorded from real Strapi 4.26.2 importing this data): an item whose
// repeatable component holds items waits for them, its siblings without do not.
func TestImportComponentOrder(t *testing.T) {
	a := openBlog(t)
	art := `{"type":"api::article.article","id":1,"data":{"title":"Order","createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z","seo":null,"links":[],"blocks":[` +
		`{"__component":"shared.seo","id":1,"metaTitle":"A","keywords":[{"id":1,"word":"k1"}]},` +
		`{"__component":"shared.seo","id":2,"metaTitle":"B","keywords":[]},` +
		`{"__component":"shared.seo","id":3,"metaTitle":"C","keywords":[]},` +
		`{"__component":"shared.seo","id":4,"metaTitle":"D","keywords":[{"id":2,"word":"k2"},{"id":3,"word":"k3"}]}]}}`
	if _, err := (&Import{DB: a.DB, Schema: a.Schema}).Run(context.Background(), archiveOf(t, a, []string{art}, nil)); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		`SELECT id, meta_title FROM components_shared_seos ORDER BY id`:          `1|B; 2|C; 3|A; 4|D`,
		`SELECT id, word FROM components_shared_keywords ORDER BY id`:            `1|k1; 2|k2; 3|k3`,
		`SELECT component_id, "order" FROM articles_components ORDER BY "order"`: `3|1; 1|2; 2|3; 4|4`,
	} {
		if got := rows(t, a, q); got != want {
			t.Errorf("%s\n got %s\nwant %s", q, got, want)
		}
	}
}
