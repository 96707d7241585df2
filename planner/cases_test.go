package planner_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/casefile"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/explain"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

var update = flag.Bool("update", false, "rewrite the case files in testdata/cases with what the stages compute")

// TestCases runs the case files of testdata/cases on examples/blog: each holds a request
// (REST query string or GraphQL document), and the IR, the plan and each dialect's SQL it
// turns into. go test ./planner -update rewrites them; one runs alone with
// -run 'TestCases/<file name>'.
//
// Input sections:
//
//	request rest <model uid> [findOne <id>]   the query string below (may be empty)
//	request graphql                           the document below, one query root field
//
// A trailing argument sort-indexed plans as on a PostgreSQL database holding every sort index
// of sqlgen.SortIndexes (planner.Config.SortIndexed).
func TestCases(t *testing.T) {
	s, err := schemas.Load("../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	cfg := planner.DefaultConfig()
	cfg.Deep.Enabled = true // strapi-plugin-populate-deep (populate=deep,N)
	rp := &planner.Planner{Schema: s, Config: cfg}
	gs, err := gqlschema.Build(s, gqlschema.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// The GraphQL plugin computes its own limits, as transport/graphql/execute's planner copy
	// does: no REST default or maximum, no count unless the selection asks for it.
	gp := *rp
	gp.Config.DefaultLimit = gs.Config.DefaultLimit
	gp.Config.MaxLimit = 0
	gp.Config.WithCount = false
	gp.Config.MaxPopulateDepth = max(gp.Config.MaxPopulateDepth, 20)

	casefile.Run(t, "testdata/cases/*.txt", *update, func(t *testing.T, in casefile.Section) []casefile.Section {
		if in.Name != "request" || len(in.Args) == 0 {
			t.Fatalf("the first section is `request rest <model>` or `request graphql`, not %q", in.Header())
		}
		var q *ir.Query
		p := rp
		if n := len(in.Args); n > 1 && in.Args[n-1] == "sort-indexed" {
			in.Args = in.Args[:n-1]
			ip := *rp
			ip.Config.SortIndexed = map[*schemas.Attribute]bool{}
			for _, x := range sqlgen.SortIndexes(s) {
				ip.Config.SortIndexed[x.Sort] = true
			}
			p = &ip
		}
		switch in.Args[0] {
		case "rest":
			if len(in.Args) < 2 {
				t.Fatal("request rest needs the model's uid")
			}
			q = &ir.Query{Model: in.Args[1], Op: ir.FindMany}
			if len(in.Args) == 4 && in.Args[2] == "findOne" {
				q.Op, q.ID = ir.FindOne, in.Args[3]
			}
			if err := rest.Parse(strings.TrimSpace(in.Body), q); err != nil {
				return []casefile.Section{{Name: "error", Body: err.Error()}}
			}
		case "graphql":
			op, err := pg.Parse(gs, pg.Request{Query: in.Body}, pg.OptionsFrom(gs.Config))
			if err != nil {
				return []casefile.Section{{Name: "error", Body: err.Error()}}
			}
			if len(op.Fields) != 1 || op.Fields[0].Query == nil {
				t.Fatalf("a GraphQL case has one query root field, not %d", len(op.Fields))
			}
			rf := op.Fields[0]
			if rf.Err != nil {
				return []casefile.Section{{Name: "error", Body: rf.Err.Error()}}
			}
			q, p = rf.Query, &gp
		default:
			t.Fatalf("unknown request kind %q", in.Args[0])
		}
		irJSON, err := json.MarshalIndent(q, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		out := []casefile.Section{{Name: "ir", Body: string(irJSON)}}
		pl, err := p.Read(q, nil)
		if err != nil {
			return append(out, casefile.Section{Name: "error", Body: err.Error()})
		}
		out = append(out, casefile.Section{Name: "plan", Body: planTree(t, pl)})
		for _, d := range sqlgen.Dialects() {
			out = append(out, casefile.Section{Name: "sql", Args: []string{d.Name()}, Body: stepSQL(t, pl, d)})
		}
		return append(out, casefile.Section{Name: "tables", Body: planTables(t, pl)})
	})
}

// tableRef finds the tables a PostgreSQL statement reads (every table follows FROM or JOIN).
var tableRef = regexp.MustCompile(`(?:FROM|JOIN) "([^"]+)"`)

// planTables is the plan's tables as sqlgen.PlanTables lists them (what the response cache
// invalidates the answer on), checked against the tables its PostgreSQL statements name.
func planTables(t *testing.T, pl *plan.Plan) string {
	tables, ok := sqlgen.PlanTables(pl)
	if !ok {
		t.Fatal("PlanTables does not know the plan's tables")
	}
	steps, err := explain.Steps(pl, sqlgen.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, st := range steps {
		for _, m := range tableRef.FindAllStringSubmatch(st.SQL, -1) {
			named = append(named, m[1])
		}
	}
	if want := sqlgen.TablesOf(named...); !slices.Equal(tables.Names, want.Names) {
		t.Errorf("PlanTables lists %v; the statements read %v", tables.Names, want.Names)
	}
	return strings.Join(tables.Names, "\n")
}

// planTree is the plan's steps without their SQL: what runs, on which table, batched on what.
func planTree(t *testing.T, pl *plan.Plan) string {
	steps, err := explain.Steps(pl, sqlgen.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, st := range steps {
		kind := "select"
		if st.BatchOn != "" {
			kind = "batch by parent id via " + st.BatchOn
		}
		if st.Count {
			kind += " (count)"
		}
		fmt.Fprintf(&b, "%s- %s: %s %s\n", strings.Repeat("  ", st.Depth), st.Label, st.Table, kind)
	}
	for _, r := range pl.Removed {
		fmt.Fprintf(&b, "removed: %s\n", r)
	}
	return strings.TrimRight(b.String(), "\n")
}

// stepSQL is each step's statement and bind values in dialect d.
func stepSQL(t *testing.T, pl *plan.Plan, d sqlgen.Dialect) string {
	steps, err := explain.Steps(pl, d)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, st := range steps {
		fmt.Fprintf(&b, "%s%s: %s\n", strings.Repeat("  ", st.Depth), st.Label, st.SQL)
		if len(st.Args) > 0 {
			fmt.Fprintf(&b, "%s  args: %s\n", strings.Repeat("  ", st.Depth), strings.Join(st.Args, ", "))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
