package write

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/casefile"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/localize"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
)

var update = flag.Bool("update", false, "rewrite the write case files in ../testdata/cases/writes with what the write path computes")

// TestWriteCases runs the write case files of planner/testdata/cases/writes: each holds a
// write request (REST or GraphQL), and the IR it lowers to, the write's plan (what the
// Writer writes, once the payload is valid), the statements it runs on each database (its
// checks, writes and read-back, with their bind values) and the events it announces. Every
// case runs on a fresh database holding the same few entries (seed), on SQLite and, when
// QUARRY_TEST_POSTGRES_URL and QUARRY_TEST_MYSQL_URL are set, PostgreSQL and MySQL (a
// dialect whose database is not configured keeps its section as it is). -update rewrites
// them; one runs alone with -run 'TestWriteCases/<file name>'.
//
// Input sections:
//
//	request rest POST|PUT|DELETE <model uid> [<id>] [localizations]
//	<query string (may be empty)>
//	<JSON body, if any>
//
//	request graphql
//	<a mutation document with one root field>
//
//	request entityService create <model uid>
//	<query string: the params' fields and populate>
//	<JSON data>
func TestWriteCases(t *testing.T) {
	s := loadSchema(t)
	gs, err := gqlschema.Build(s, gqlschema.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	casefile.Run(t, "../testdata/cases/writes/*.txt", *update, func(t *testing.T, in casefile.Section) []casefile.Section {
		q, err := lowerCase(gs, in)
		if err != nil {
			return []casefile.Section{{Name: "error", Body: err.Error()}}
		}
		irJSON, err := json.MarshalIndent(q, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out := []casefile.Section{{Name: "ir", Body: string(irJSON)}}
		var runs []caseRun
		for _, d := range sqlgen.Dialects() {
			kind := d.Name()
			if kind != "sqlite" && !dbConfigured(kind) {
				runs = append(runs, caseRun{dialect: kind, unavailable: true})
				continue
			}
			runs = append(runs, runCase(t, kind, q))
		}
		first := runs[0]
		out = append(out, casefile.Section{Name: "plan", Body: first.plan})
		for _, r := range runs {
			out = append(out, casefile.Section{Name: "sql", Args: []string{r.dialect}, Body: r.sql, Unavailable: r.unavailable})
			if !r.unavailable && (r.events != first.events || r.plan != first.plan) {
				t.Errorf("%s: plan or events differ from SQLite's:\n%s\n%s", r.dialect, r.plan, r.events)
			}
		}
		return append(out, casefile.Section{Name: "events", Body: first.events})
	})
}

// lowerCase lowers a case's request as the transport does.
func lowerCase(gs *gqlschema.Schema, in casefile.Section) (*ir.Query, error) {
	if len(in.Args) == 0 {
		return nil, fmt.Errorf("no request kind")
	}
	switch in.Args[0] {
	case "rest":
		a := in.Args[1:]
		if len(a) < 2 {
			return nil, fmt.Errorf("request rest <method> <uid> [id] [localizations]")
		}
		w := rest.Write{Model: a[1]}
		switch a[0] {
		case "POST":
			w.Op = ir.Create
		case "PUT":
			w.Op = ir.Update
		case "DELETE":
			w.Op = ir.Delete
		}
		if len(a) > 2 {
			w.ID = a[2]
		}
		if len(a) > 3 && a[3] == "localizations" {
			w.Op, w.Unwrapped = ir.CreateLocalization, true
		}
		query, body, _ := strings.Cut(in.Body, "\n")
		w.Query = strings.TrimSpace(query)
		if strings.TrimSpace(body) != "" {
			dec := json.NewDecoder(strings.NewReader(body))
			dec.UseNumber()
			if err := dec.Decode(&w.Body); err != nil {
				return nil, err
			}
		}
		return rest.ParseWrite(w)
	case "entityService":
		// strapi.entityService.create(uid, {data, ...query}) from the project's or a plugin's
		// code.
		if len(in.Args) != 3 || in.Args[1] != "create" {
			return nil, fmt.Errorf("request entityService create <uid>")
		}
		q := &ir.Query{Model: in.Args[2], Op: ir.Create, Via: ir.ViaEntityService}
		query, body, _ := strings.Cut(in.Body, "\n")
		if err := rest.Parse(strings.TrimSpace(query), q); err != nil {
			return nil, err
		}
		dec := json.NewDecoder(strings.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&q.Data); err != nil {
			return nil, err
		}
		return q, nil
	case "graphql":
		op, err := pg.Parse(gs, pg.Request{Query: in.Body}, pg.OptionsFrom(gs.Config))
		if err != nil {
			return nil, err
		}
		if len(op.Fields) != 1 || op.Fields[0].Query == nil || !op.Fields[0].Query.Op.IsWrite() {
			return nil, fmt.Errorf("a GraphQL write case has one Shadow CRUD mutation")
		}
		if err := op.Fields[0].Err; err != nil {
			return nil, err
		}
		return op.Fields[0].Query, nil
	}
	return nil, fmt.Errorf("unknown request kind %q", in.Args[0])
}

// caseRun is what one case did on one database.
type caseRun struct {
	dialect     string
	unavailable bool
	plan, sql   string
	events      string
}

// collected is an Announcer that lists the events.
type collected struct {
	mu   sync.Mutex
	list []string
}

func (c *collected) Announce(_ context.Context, ev Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = append(c.list, fmt.Sprintf("%s %s #%d", ev.Name, ev.Model.UID, ev.ID))
}

// runCase runs q on a fresh, seeded database of kind.
func runCase(t *testing.T, kind string, q *ir.Query) caseRun {
	t.Helper()
	e := newEnv(t, kind)
	ctx := context.Background()
	p := &planner.Planner{Schema: e.schema, Config: planner.DefaultConfig()}
	r := &exec.Runner{Dialect: e.db.Dialect}
	ev := &collected{}
	svc := &Service{Writer: e.w, Planner: p, Runner: r, DB: e.db, Announcer: ev,
		Localize: &localize.Service{Planner: p, Runner: r, Writer: e.w, Dialect: e.db.Dialect, Locales: caseLocales{}}}
	seedCase(t, ctx, e, svc)
	ev.list = nil

	run := caseRun{dialect: kind}
	var sqlText strings.Builder
	var plans []string
	tctx := exec.WithTrace(ctx, func(st sqlgen.Stmt, _ int, _ time.Duration) {
		fmt.Fprintf(&sqlText, "%s\n", st.SQL)
		if len(st.Args) > 0 {
			args := make([]string, len(st.Args))
			for i, a := range st.Args {
				args[i] = caseArg(a)
			}
			fmt.Fprintf(&sqlText, "  args: %s\n", strings.Join(args, ", "))
		}
	})
	tctx = WithPlanTrace(tctx, func(plan string) { plans = append(plans, plan) })
	qc := *q
	res, err := svc.Apply(tctx, &qc, ir.System)
	if err != nil {
		fmt.Fprintf(&sqlText, "error: %v\n", err)
	} else if res.Entry == nil {
		fmt.Fprintf(&sqlText, "no entry\n")
	}
	run.plan = strings.Join(plans, "\n")
	run.sql = strings.TrimRight(sqlText.String(), "\n")
	run.events = strings.Join(ev.list, "\n")
	return run
}

// caseLocales are the blog's locales, en (the default) and fr.
type caseLocales struct{}

func (caseLocales) Default(context.Context) (string, error) { return "en", nil }
func (caseLocales) Exists(_ context.Context, code string) (bool, error) {
	return code == "en" || code == "fr", nil
}

// bcryptHash is a bcrypt hash, which differs on every run.
var bcryptHash = regexp.MustCompile(`^\$2[aby]\$\d\d\$.{53}$`)

// caseArg prints a bind value, bcrypt hashes masked.
func caseArg(a any) string {
	switch v := a.(type) {
	case string:
		if bcryptHash.MatchString(v) {
			return "<bcrypt hash>"
		}
		return fmt.Sprintf("%q", v)
	case []byte:
		return fmt.Sprintf("%q", v)
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano)
	case nil:
		return "NULL"
	}
	return fmt.Sprint(a)
}

// seedCase writes what the cases refer to: writers 1 and 2, tags 1 to 3, files 1 and 2, article
// 1 with components, a dynamic zone, relations and media, page 1 (en) and the users-permissions
// role 1.
func seedCase(t *testing.T, ctx context.Context, e *env, svc *Service) {
	t.Helper()
	for i, name := range []string{"a.png", "b.png"} {
		st := sqlgen.FileInsert(e.db.Dialect, sqlgen.FileRow{Name: name, Hash: fmt.Sprintf("h%d", i), Ext: ".png", Mime: "image/png",
			Size: 1, URL: "/uploads/" + name, Provider: "local", FolderPath: "/", Now: fixedNow})
		for i, a := range st.Args {
			st.Args[i] = e.db.Dialect.Bind(a)
		}
		if _, err := database.InsertID(ctx, e.db, st); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []struct{ uid, data string }{
		{"api::writer.writer", `{"name":"Ann"}`},
		{"api::writer.writer", `{"name":"Bo"}`},
		{"api::tag.tag", `{"name":"go"}`},
		{"api::tag.tag", `{"name":"db"}`},
		{"api::tag.tag", `{"name":"web"}`},
		{"api::article.article", `{"title":"First post","author":1,"tags":[1,2],"seo":{"metaTitle":"First","keywords":[{"word":"a"}]},` +
			`"links":[{"label":"one","tag":1},{"label":"two"}],"blocks":[{"__component":"shared.quote","text":"q"},{"__component":"shared.link","label":"l"}],` +
			`"cover":1,"gallery":[1,2]}`},
		{"api::page.page", `{"title":"About","views":1}`},
		{"plugin::users-permissions.role", `{"name":"Authenticated","description":"Default role given to authenticated user.","type":"authenticated"}`},
	} {
		dec := json.NewDecoder(strings.NewReader(w.data))
		dec.UseNumber()
		var data map[string]any
		if err := dec.Decode(&data); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Apply(ctx, &ir.Query{Model: w.uid, Op: ir.Create, Data: data}, ir.System); err != nil {
			t.Fatalf("seed %s: %v", w.uid, err)
		}
	}
}

// dbConfigured reports whether the tests have a database server of kind.
func dbConfigured(kind string) bool {
	switch kind {
	case "postgres":
		return os.Getenv("QUARRY_TEST_POSTGRES_URL") != ""
	case "mysql":
		return os.Getenv("QUARRY_TEST_MYSQL_URL") != ""
	}
	return true
}
