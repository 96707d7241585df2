// Package datagen fills a database that has the Strapi v4 layout of an app (created by
// Quarry's migration, or by Strapi itself) with deterministic, realistic content: entries of
// every content type asked for, their relations (link tables with order columns), components
// and dynamic zones (through <table>_components), and media links (files_related_morphs).
//
// Everything is driven by the loaded schema, so table and column names are Strapi's; the
// content is chosen for the benchmark requests of examples/blog (titles that a $containsi
// filter matches for a fraction of the rows, writers with mentors, tags with owners, SEO
// components with keywords, links with tags, dynamic zones mixing three components).
//
// Rows are written with multi-row INSERTs in one transaction, with explicit ids, so the same
// seed gives the same database on SQLite and PostgreSQL (10 000 articles take a few seconds).
package datagen

import (
	"context"
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

// Options say how much to generate.
type Options struct {
	// Articles is the size knob: the number of api::article.article entries. The other
	// content types scale from it unless Counts says otherwise.
	Articles int
	// Counts overrides the number of entries per model UID (content types and
	// plugin::upload.file). Models not listed and not derived from Articles get none.
	Counts map[string]int
	// Seed makes the content reproducible.
	Seed uint64
	// Base is the creation time of the first entry (default 2024-01-01T00:00:00Z).
	Base time.Time
	// Token, when set, stores a full-access API token with this key (hashed with Salt as
	// Strapi does), so a load driver can authenticate with a known key.
	Token *Token
}

// Token is an API token to store with a known key.
type Token struct {
	Name, Key, Salt string
}

// Stats report what was written.
type Stats struct {
	Rows   map[string]int // per table
	Took   time.Duration
	Tables int
}

// Total is the number of rows written.
func (s Stats) Total() int {
	n := 0
	for _, v := range s.Rows {
		n += v
	}
	return n
}

// DefaultCounts derives the entry counts of examples/blog's types from the article count:
// one writer per 20 articles (at least 10), 50 tags, 200 image files.
func DefaultCounts(articles int) map[string]int {
	return map[string]int{
		"api::article.article": articles,
		"api::writer.writer":   max(10, articles/20),
		"api::tag.tag":         50,
		"plugin::upload.file":  200,
	}
}

// Generate writes the content into db, whose tables must exist (db.Migrate) and hold no
// entries of the generated types yet.
func Generate(ctx context.Context, db *database.DB, s *schemas.Schema, opt Options) (Stats, error) {
	start := time.Now()
	counts := DefaultCounts(opt.Articles)
	for k, v := range opt.Counts {
		counts[k] = v
	}
	if opt.Base.IsZero() {
		opt.Base = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	g := &gen{
		d:      db.Dialect,
		s:      s,
		rnd:    rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15)),
		counts: counts,
		base:   opt.Base,
		tables: map[string]*table{},
		next:   map[string]int64{},
		taken:  map[string]map[int64]bool{},
	}
	models := append([]*schemas.Model{s.Files}, s.ContentTypes...)
	for _, m := range models {
		if counts[m.UID] == 0 {
			continue
		}
		var n int
		count := sqlgen.TableCount(db.Dialect, m.Table)
		if err := db.GetContext(ctx, &n, count.SQL, count.Args...); err != nil {
			return Stats{}, fmt.Errorf("count %s: %w", m.Table, err)
		}
		if n > 0 {
			return Stats{}, fmt.Errorf("table %s already holds %d rows: generate into an empty database", m.Table, n)
		}
	}
	// Entries first (relations need every target's id), then their links and components.
	for _, m := range models {
		for i := 1; i <= counts[m.UID]; i++ {
			g.entry(m, int64(i))
		}
		g.next[m.Table] = int64(counts[m.UID])
	}
	for _, m := range models {
		for i := 1; i <= counts[m.UID]; i++ {
			g.links(m, int64(i))
		}
	}
	if t := opt.Token; t != nil {
		ts := g.d.Bind(g.base)
		g.row("strapi_api_tokens", false, []string{"name", "description", "type", "access_key", "lifespan", "expires_at", "created_at", "updated_at"},
			t.Name, "benchmark load driver", "full-access", tokenHash(t.Salt, t.Key), nil, nil, ts, ts)
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Stats{}, err
	}
	defer tx.Rollback()
	st := Stats{Rows: map[string]int{}}
	// Entity tables before join tables, so foreign keys are satisfied statement by statement.
	names := make([]string, 0, len(g.tables))
	for n := range g.tables {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := g.tables[names[i]], g.tables[names[j]]
		if a.join != b.join {
			return !a.join
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		t := g.tables[n]
		if err := t.flush(ctx, tx, g.d); err != nil {
			return Stats{}, err
		}
		st.Rows[n] = t.n
	}
	// Explicit ids leave the engine's id sequences behind: move them past the rows written.
	for _, n := range names {
		if s, ok := sqlgen.IDSequenceReset(g.d, n); ok {
			if _, err := tx.ExecContext(ctx, s.SQL, s.Args...); err != nil {
				return Stats{}, fmt.Errorf("reset sequence of %s: %w", n, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return Stats{}, err
	}
	for _, n := range names {
		if s, ok := sqlgen.Analyze(g.d, n); ok {
			if _, err := db.ExecContext(ctx, s.SQL, s.Args...); err != nil {
				return Stats{}, fmt.Errorf("analyze %s: %w", n, err)
			}
		}
	}
	st.Tables = len(names)
	st.Took = time.Since(start)
	return st, nil
}

type gen struct {
	d      sqlgen.Dialect
	s      *schemas.Schema
	rnd    *rand.Rand
	counts map[string]int
	base   time.Time
	tables map[string]*table
	next   map[string]int64 // last id used per table (components, link rows)
	// taken records targets of oneToMany relations already linked (a target has one source).
	taken map[string]map[int64]bool
}

// table buffers the rows of one table.
type table struct {
	name string
	cols []string
	rows [][]any
	join bool
	n    int
}

func (g *gen) row(name string, join bool, cols []string, vals ...any) {
	t := g.tables[name]
	if t == nil {
		t = &table{name: name, cols: cols, join: join}
		g.tables[name] = t
	}
	t.rows = append(t.rows, vals)
}

func (t *table) flush(ctx context.Context, tx *sqlx.Tx, d sqlgen.Dialect) error {
	per := max(1, min(500, 15000/len(t.cols)))
	for lo := 0; lo < len(t.rows); lo += per {
		hi := min(lo+per, len(t.rows))
		s := sqlgen.InsertRows(d, t.name, t.cols, t.rows[lo:hi])
		if _, err := tx.ExecContext(ctx, s.SQL, s.Args...); err != nil {
			return fmt.Errorf("insert into %s: %w", t.name, err)
		}
		t.n += hi - lo
	}
	t.rows = nil
	return nil
}

func (g *gen) nextID(table string) int64 {
	g.next[table]++
	return g.next[table]
}

// entry buffers the row of entry id of a content type (or file) with its scalar values.
func (g *gen) entry(m *schemas.Model, id int64) {
	cols, vals := []string{"id"}, []any{id}
	cols, vals = g.scalars(m, id, cols, vals)
	created := g.base.Add(time.Duration(id) * 7 * time.Minute)
	cols = append(cols, "created_at", "updated_at")
	vals = append(vals, g.d.Bind(created), g.d.Bind(created.Add(time.Hour)))
	if m.DraftAndPublish {
		cols = append(cols, "published_at")
		if g.rnd.IntN(10) == 0 {
			vals = append(vals, nil) // a draft
		} else {
			vals = append(vals, g.d.Bind(created.Add(2*time.Hour)))
		}
	}
	if m.Localized {
		cols = append(cols, "locale")
		vals = append(vals, "en")
	}
	g.row(m.Table, false, cols, vals...)
}

// component buffers a new component instance of c and everything under it; it returns its id.
func (g *gen) component(c *schemas.Model) int64 {
	id := g.nextID(c.Table)
	cols, vals := g.scalars(c, id, []string{"id"}, []any{id})
	g.row(c.Table, false, cols, vals...)
	g.links(c, id)
	return id
}

// links buffers the relations, media and components of one entry or component instance.
func (g *gen) links(m *schemas.Model, id int64) {
	for _, a := range m.Attributes {
		if a.System {
			continue
		}
		switch a.Type {
		case schemas.Relation:
			if a.MappedBy == "" {
				g.relation(m, a, id)
			}
		case schemas.Media:
			g.media(a, id)
		case schemas.ComponentT:
			n := 0
			if a.Repeatable {
				n = g.rnd.IntN(4)
			} else if g.rnd.IntN(10) > 0 {
				n = 1
			}
			for i := 1; i <= n; i++ {
				cid := g.component(a.Components[0])
				g.componentLink(m, a.Name, a.Components[0].UID, id, cid, i)
			}
		case schemas.DynamicZone:
			n := 1 + g.rnd.IntN(4)
			for i := 1; i <= n; i++ {
				c := a.Components[g.rnd.IntN(len(a.Components))]
				cid := g.component(c)
				g.componentLink(m, a.Name, c.UID, id, cid, i)
			}
		}
	}
}

func (g *gen) componentLink(owner *schemas.Model, field, typ string, entity, comp int64, order int) {
	t := owner.ComponentsTable
	g.row(t, true, []string{"id", "entity_id", "component_id", "component_type", "field", "order"},
		g.nextID(t), entity, comp, typ, field, float64(order))
}

func (g *gen) relation(m *schemas.Model, a *schemas.Attribute, id int64) {
	n := g.counts[a.Target.UID]
	if n == 0 || (a.Target == m && n < 2) {
		return
	}
	var k int
	switch a.Relation {
	case schemas.OneToOne, schemas.ManyToOne:
		if g.rnd.IntN(10) > 0 {
			k = 1
		}
	default:
		k = g.rnd.IntN(4)
	}
	chosen := map[int64]bool{}
	j := a.Link
	for i := 1; i <= k; i++ {
		var target int64
		for try := 0; try < 8; try++ {
			t := int64(1 + g.rnd.IntN(n))
			if a.Target == m && t == id || chosen[t] {
				continue
			}
			if a.Relation == schemas.OneToMany && g.taken[j.Table][t] {
				continue
			}
			target = t
			break
		}
		if target == 0 {
			continue
		}
		chosen[target] = true
		if a.Relation == schemas.OneToMany {
			if g.taken[j.Table] == nil {
				g.taken[j.Table] = map[int64]bool{}
			}
			g.taken[j.Table][target] = true
		}
		cols := []string{"id", j.SourceCol, j.TargetCol}
		vals := []any{g.nextID(j.Table), id, target}
		if j.OrderCol != "" {
			cols = append(cols, j.OrderCol)
			vals = append(vals, float64(i))
		}
		if j.InvOrderCol != "" {
			// Position of this source among the target's sources.
			key := j.Table + "#inv#" + strconv.FormatInt(target, 10)
			cols = append(cols, j.InvOrderCol)
			vals = append(vals, float64(g.nextID(key)))
		}
		g.row(j.Table, true, cols, vals...)
	}
}

func (g *gen) media(a *schemas.Attribute, id int64) {
	n := g.counts[g.s.Files.UID]
	if n == 0 {
		return
	}
	k := 0
	if a.Multiple {
		k = g.rnd.IntN(4)
	} else if g.rnd.IntN(10) < 6 {
		k = 1
	}
	for i := 1; i <= k; i++ {
		g.row("files_related_morphs", true, []string{"id", "file_id", "related_id", "related_type", "field", "order"},
			g.nextID("files_related_morphs"), int64(1+g.rnd.IntN(n)), id, a.Link.MorphType, a.Name, float64(i))
	}
}

var (
	titleWords = []string{"Go", "PostgreSQL", "SQLite", "Strapi", "GraphQL", "REST", "caching", "queries",
		"indexes", "benchmarks", "latency", "design", "testing", "deploys", "schemas", "migrations",
		"pagination", "filters", "relations", "components", "search", "errors", "logging", "tokens"}
	firstNames = []string{"Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farah", "Gus", "Hana", "Ivo", "Jun",
		"Kofi", "Lena", "Mateo", "Nora", "Omar", "Pia", "Quinn", "Rosa", "Sven", "Tariq"}
	lastNames = []string{"Smith", "Garcia", "Müller", "Okafor", "Tanaka", "Rossi", "Novak", "Silva",
		"Kim", "Dubois", "Ivanova", "Hansen", "Costa", "Nowak", "Haddad"}
	sentence = []string{"Quarry serves the content API", "from the schema files", "on SQLite and PostgreSQL",
		"with the same query syntax", "and the same JSON", "batched one statement per level",
		"without N+1 queries", "as the benchmark shows", "under load", "at a fixed concurrency"}
)

func (g *gen) pick(words []string) string { return words[g.rnd.IntN(len(words))] }

func (g *gen) text(sentences int) string {
	var b strings.Builder
	for i := 0; i < sentences; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.pick(sentence))
		b.WriteString(", ")
		b.WriteString(g.pick(sentence))
		b.WriteByte('.')
	}
	return b.String()
}

// scalars appends the columns and values of m's scalar attributes.
func (g *gen) scalars(m *schemas.Model, id int64, cols []string, vals []any) ([]string, []any) {
	var title string
	for _, a := range m.Attributes {
		if a.Column == "" || a.System {
			continue
		}
		v := g.value(m, a, id, &title)
		cols = append(cols, a.Column)
		vals = append(vals, v)
	}
	return cols, vals
}

func (g *gen) value(m *schemas.Model, a *schemas.Attribute, id int64, title *string) any {
	sid := strconv.FormatInt(id, 10)
	if m == g.s.Files {
		switch a.Name {
		case "name":
			return "image-" + sid + ".jpg"
		case "url":
			return "/uploads/image_" + sid + ".jpg"
		case "hash":
			return "image_" + sid
		case "ext":
			return ".jpg"
		case "mime":
			return "image/jpeg"
		case "provider":
			return "local"
		case "folderPath":
			return "/"
		case "size":
			return float64(10+g.rnd.IntN(500)) + 0.25
		case "width", "height":
			return int64(200 + g.rnd.IntN(1800))
		case "formats":
			return `{"thumbnail":{"ext":".jpg","url":"/uploads/thumbnail_image_` + sid + `.jpg","width":156,"height":156}}`
		}
	}
	switch a.Type {
	case schemas.String:
		switch {
		case a.Unique || a.Regex != nil:
			return strings.ToLower(schemas.SnakeCase(a.Name)) + "-" + sid
		case a.Name == "title" || a.Name == "metaTitle":
			t := g.pick(titleWords) + " " + g.pick(titleWords) + " and " + strings.ToLower(g.pick(titleWords)) + " #" + sid
			*title = t
			return t
		case a.Name == "name" && m.UID == "api::tag.tag":
			return "tag-" + sid
		case a.Name == "name":
			return g.pick(firstNames) + " " + g.pick(lastNames) + " " + sid
		case a.Name == "url":
			return "https://example.com/" + sid
		case a.MaxLength != nil && *a.MaxLength < 20:
			return "x" + sid
		}
		return a.Name + " " + sid
	case schemas.Text, schemas.RichText:
		if a.Type == schemas.RichText {
			return "## " + a.Name + " " + sid + "\n\n" + g.text(6)
		}
		return g.text(1 + g.rnd.IntN(2))
	case schemas.Email:
		return "person" + sid + "@example.com"
	case schemas.Password, schemas.Blocks:
		return nil
	case schemas.UID:
		base := *title
		if base == "" {
			base = a.Name
		}
		return strings.ReplaceAll(strings.ToLower(strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return ' '
		}, base)), " ", "-") + "-" + sid
	case schemas.Enumeration:
		if len(a.Enum) == 0 {
			return nil
		}
		return a.Enum[g.rnd.IntN(len(a.Enum))]
	case schemas.Integer:
		lo, hi := 0, 1000
		if a.Min != nil {
			lo = int(*a.Min)
		}
		if a.Max != nil {
			hi = int(*a.Max)
		}
		return int64(lo + g.rnd.IntN(hi-lo+1))
	case schemas.BigInteger:
		return int64(1_000_000_000_000 + g.rnd.IntN(1_000_000))
	case schemas.Float:
		return float64(g.rnd.IntN(100000)) / 100
	case schemas.Decimal:
		return float64(g.rnd.IntN(1000)) / 100
	case schemas.Boolean:
		return g.rnd.IntN(4) == 0
	case schemas.Date:
		return g.base.AddDate(0, 0, g.rnd.IntN(700)).Format("2006-01-02")
	case schemas.Time:
		return fmt.Sprintf("%02d:%02d:%02d.000", g.rnd.IntN(24), g.rnd.IntN(60), g.rnd.IntN(60))
	case schemas.DateTime, schemas.Timestamp:
		return g.d.Bind(g.base.Add(time.Duration(g.rnd.IntN(700*24)) * time.Hour))
	case schemas.JSON:
		return `{"n":` + sid + `,"tags":["a","b"],"nested":{"ok":true}}`
	}
	return nil
}

// tokenHash is how Strapi (and Quarry's auth package) store an API token's key: hex
// HMAC-SHA512 of the key with API_TOKEN_SALT.
func tokenHash(salt, key string) string {
	m := hmac.New(sha512.New, []byte(salt))
	m.Write([]byte(key))
	return hex.EncodeToString(m.Sum(nil))
}
