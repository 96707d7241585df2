package explain

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/bench/datagen"
	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen/database"
)

var fullScan = regexp.MustCompile(`^SCAN j\d`)

// TestSQLiteLinkTablesUseOwnerIndex checks SQLite's own plan, on a database with rows, for
// every statement that reads a component link table or the media morph table: the rows must
// be found through the owning entity's index, never through the low-selectivity
// component_type, field or order index (which reads every row of a component type).
func TestSQLiteLinkTablesUseOwnerIndex(t *testing.T) {
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := database.Open(ctx, database.Config{Client: "sqlite", Filename: filepath.Join(t.TempDir(), "p.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx, s, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := datagen.Generate(ctx, db, s, datagen.Options{Articles: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	p := &planner.Planner{Schema: s, Config: planner.DefaultConfig()}
	for _, query := range []string{
		"populate[blocks]=*",
		"populate[seo][populate]=*",
		"populate[links][populate]=tag",
		"populate[cover]=true&populate[gallery]=true",
		"filters[seo][metaTitle][$eq]=x",
		"filters[cover][name][$eq]=a.png",
	} {
		q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
		if err := rest.Parse(query, q); err != nil {
			t.Fatal(err)
		}
		pl, err := p.Read(q, nil)
		if err != nil {
			t.Fatal(err)
		}
		steps, err := Steps(pl, db.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		if err := Run(ctx, db, steps, false); err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, st := range steps {
			if !strings.Contains(st.SQL, `_components"`) && !strings.Contains(st.SQL, `"files_related_morphs"`) {
				continue
			}
			checked++
			for _, line := range st.Explain {
				for _, bad := range []string{"_component_type_index", "_field_index", "_order_index"} {
					if strings.Contains(line, bad) {
						t.Errorf("%s: %s reads a link table through %q:\n%s\n%s", query, st.Label, line, st.SQL, strings.Join(st.Explain, "\n"))
					}
				}
				if fullScan.MatchString(line) {
					t.Errorf("%s: %s scans a link table: %q\n%s", query, st.Label, line, st.SQL)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no statement reads a link table", query)
		}
	}
}
