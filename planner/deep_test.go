package planner_test

import (
	"errors"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/rest"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/schemas"
)

func blogPlanner(t testing.TB) *planner.Planner {
	s, err := schemas.Load("../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	cfg := planner.DefaultConfig()
	cfg.Deep.Enabled = true
	cfg.Deep.MaxDepth = 4
	return &planner.Planner{Schema: s, Config: cfg}
}

// depth is how many populate levels a plan nests.
func depth(cs []*plan.Child) int {
	d := 0
	for _, c := range cs {
		for _, s := range c.Steps {
			d = max(d, 1+depth(s.Children))
		}
	}
	return d
}

func planOf(t *testing.T, p *planner.Planner, query string, who planner.Principal) *plan.Plan {
	t.Helper()
	q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
	if err := rest.Parse(query, q); err != nil {
		t.Fatal(err)
	}
	pl, err := p.Read(q, who)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return pl
}

func TestDeepDepthAndCap(t *testing.T) {
	p := blogPlanner(t)
	for query, want := range map[string]int{
		"populate=deep,1": 0, "populate=deep,2": 1, "populate=deep,3": 2,
		"populate=deep":    3, // the default 5, capped at 4
		"populate=deep,50": 3,
	} {
		if got := depth(planOf(t, p, query, nil).Root.Children); got != want {
			t.Errorf("%s: %d levels, want %d", query, got, want)
		}
	}
	// articles.related leads back to articles under a name the plugin's cycle rule does not
	// know: without a number the plugin never stops (Strapi crashes).
	q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
	if err := rest.Parse("populate=deep,x", q); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Read(q, nil); err == nil {
		t.Error("populate=deep,x planned on a schema the plugin loops on")
	}
	p.Config.Deep.Enabled = false
	if got := depth(planOf(t, p, "populate=deep,3", nil).Root.Children); got != 0 {
		t.Errorf("without the plugin deep populated %d levels", got)
	}
}

type only map[string]bool

func (o only) CanFind(uid string) bool { return o[uid] }

func TestDeepLeavesOutWhatTheCallerMayNotFind(t *testing.T) {
	p := blogPlanner(t)
	pl := planOf(t, p, "populate=deep,3", only{"api::article.article": true, "api::tag.tag": true})
	for _, c := range pl.Root.Children {
		if c.Attr.Name == "author" {
			t.Fatal("author populated for a caller that may not find writers")
		}
		for _, s := range c.Steps {
			for _, cc := range s.Children {
				if cc.Attr.Target != nil && cc.Attr.Target.UID == "api::writer.writer" {
					t.Fatalf("%s.%s populated for a caller that may not find writers", c.Attr.Name, cc.Attr.Name)
				}
			}
		}
	}
}

// FuzzPopulate plans arbitrary populate parameters: every refusal is a 400.
func FuzzPopulate(f *testing.F) {
	for _, s := range []string{
		"populate=deep,4", "populate=deep,x", "populate[author][populate][fields][0]=name",
		"populate[blocks][on][shared.link][populate]=tag&populate[blocks][fields][0]=kind",
		"populate[tags][page]=2&populate[tags][pageSize]=1", "populate[0]=author.articles&populate[1]=author.avatar",
		"populate[seo][populate][populate][sort]=x&populate[cover][0]=a",
	} {
		f.Add(s)
	}
	p := blogPlanner(f)
	f.Fuzz(func(t *testing.T, raw string) {
		q := &ir.Query{Model: "api::article.article", Op: ir.FindMany}
		err := rest.Parse(raw, q)
		if err == nil {
			_, err = p.Read(q, nil)
		}
		var ae *apierror.Error
		if err != nil && (!errors.As(err, &ae) || ae.Status != 400) {
			t.Fatalf("%q: %v", raw, err)
		}
	})
}
