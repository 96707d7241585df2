package explain

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

var update = flag.Bool("update", false, "rewrite golden files")

// requests is the golden corpus: each is planned and rendered for every dialect.
var requests = []struct{ name, model, query string }{
	{"list_default", "api::article.article", ""},
	{"filters_or_deep", "api::article.article", "filters[$or][0][title][$containsi]=go&filters[$or][1][author][name][$eq]=Ann&sort=views:desc"},
	{"filters_to_many", "api::article.article", "filters[tags][name][$in][0]=go&filters[tags][name][$in][1]=db&pagination[pageSize]=10"},
	{"filters_component", "api::article.article", "filters[seo][metaTitle][$startsWith]=Hi&filters[seo][keywords][word]=x"},
	{"filters_not", "api::article.article", "filters[$not][title][$contains]=x&filters[views][$between][0]=1&filters[views][$between][1]=5"},
	{"populate_two_levels", "api::article.article", "populate[author][populate][articles][fields][0]=title&populate[tags][sort]=name:desc&filters[title][$notNull]=true"},
	{"populate_star", "api::article.article", "populate=*&pagination[start]=10&pagination[limit]=5"},
	{"populate_dz_on", "api::article.article", "populate[blocks][on][shared.link][populate]=tag&populate[blocks][on][shared.seo][fields][0]=kind"},
	{"populate_count_limit", "api::writer.writer", "populate[articles][count]=true&populate[friends][start]=0&populate[friends][limit]=2"},
	{"sort_through_relation", "api::article.article", "sort=author.name:asc,id:desc&fields[0]=title"},
	{"media", "api::article.article", "populate[cover]=true&populate[gallery]=true&filters[cover][name][$eq]=a.png"},
	// Options written among attribute names are validated and dropped, as Strapi does.
	{"populate_stray_options", "api::article.article", "populate[author][populate][fields][0]=name&populate[author][populate][articles][fields][0]=title&populate[author][populate][sort]=name"},
	// strapi-plugin-populate-deep, enabled below: every relation, component, zone and media
	// two levels down, one statement per populated attribute and level.
	{"populate_deep", "api::article.article", "populate=deep,3"},
}

func TestGoldenPlans(t *testing.T) {
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	cfg := planner.DefaultConfig()
	cfg.Deep.Enabled = true
	p := &planner.Planner{Schema: s, Config: cfg}
	for _, r := range requests {
		for _, d := range []sqlgen.Dialect{sqlgen.SQLite, sqlgen.Postgres} {
			t.Run(r.name+"/"+d.Name(), func(t *testing.T) {
				q := &ir.Query{Model: r.model, Op: ir.FindMany}
				if err := rest.Parse(r.query, q); err != nil {
					t.Fatal(err)
				}
				pl, err := p.Read(q, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Text(pl, d)
				if err != nil {
					t.Fatal(err)
				}
				irJSON, err := json.MarshalIndent(q, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got = "GET ?" + r.query + "\nIR:\n" + string(irJSON) + "\nplan:\n" + got
				path := filepath.Join("testdata", r.name+"."+d.Name()+".golden")
				if *update {
					os.MkdirAll("testdata", 0o755)
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to create)", err)
				}
				if strings.TrimSpace(string(want)) != strings.TrimSpace(got) {
					t.Errorf("plan changed:\n--- got\n%s\n--- want\n%s", got, want)
				}
			})
		}
	}
}
