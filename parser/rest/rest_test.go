package rest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
)

func parse(t *testing.T, raw string) (*ir.Query, error) {
	t.Helper()
	q := &ir.Query{}
	err := Parse(raw, q)
	return q, err
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestFilters(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"filters[title][$eq]=Hello", `{"kind":"cond","field":"title","operator":"$eq","values":[{"kind":"string","value":"Hello"}]}`},
		{"filters[title]=Hello", `{"kind":"cond","field":"title","operator":"$eq","values":[{"kind":"string","value":"Hello"}]}`},
		{"filters[title][$eq]", `{"kind":"cond","field":"title","operator":"$eq","values":[{"kind":"null","value":""}]}`},
		{"filters[id][$in][0]=1&filters[id][$in][1]=2", `{"kind":"cond","field":"id","operator":"$in","values":[{"kind":"string","value":"1"},{"kind":"string","value":"2"}]}`},
	}
	for _, c := range cases {
		q, err := parse(t, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := js(q.Filters); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// shape renders a filter tree compactly for assertions.
func shape(f *ir.Filter) string {
	if f == nil {
		return "-"
	}
	switch f.Kind {
	case ir.And, ir.Or, ir.Not:
		name := map[ir.FilterKind]string{ir.And: "and", ir.Or: "or", ir.Not: "not"}[f.Kind]
		parts := make([]string, len(f.Children))
		for i, c := range f.Children {
			parts[i] = shape(c)
		}
		return name + "(" + strings.Join(parts, ",") + ")"
	case ir.Relation:
		parts := make([]string, len(f.Children))
		for i, c := range f.Children {
			parts[i] = shape(c)
		}
		return f.Field + "{" + strings.Join(parts, ",") + "}"
	}
	vals := make([]string, len(f.Values))
	for i, v := range f.Values {
		if v.Kind == ir.VNull {
			vals[i] = "null"
		} else {
			vals[i] = v.S
		}
	}
	return f.Field + f.Operator + strings.Join(vals, "|")
}

func TestFilterShapes(t *testing.T) {
	cases := []struct{ in, want string }{
		{"filters[$or][0][title][$eq]=a&filters[$or][1][views][$gt]=3", "or(title$eq a,views$gt3)"},
		{"filters[title][$eq][0]=a&filters[title][$eq][1]=b", "title$eqa|b"},
		{"filters[$not][title][$contains]=x", "not(title$containsx)"},
		{"filters[title][$not][$contains]=x", "not(title$containsx)"},
		{"filters[author][name][$eq]=Ann", "author{name$eqAnn}"},
		{"filters[author][articles][title][$startsWith]=Go", "author{articles{title$startsWithGo}}"},
		{"filters[author]=1", "author$eq1"},
		{"filters[author][$null]=true", "author$nulltrue"},
		{"filters[title][$startsWith]=a&filters[views][$lt]=5", "and(title$startsWitha,views$lt5)"},
		{"filters[$and][0][$or][0][a]=1&filters[$and][0][$or][1][b]=2&filters[$and][1][c]=3", "and(or(a$eq1,b$eq2),c$eq3)"},
		{"filters[title][$between][0]=a&filters[title][$between][1]=b", "title$betweena|b"},
		{"filters[seo][metaTitle][$eqi]=x", "seo{metaTitle$eqix}"},
		{"filters[title]=", "title$eq"},
	}
	for _, c := range cases {
		q, err := parse(t, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := strings.ReplaceAll(shape(q.Filters), " ", ""); got != strings.ReplaceAll(c.want, " ", "") {
			t.Errorf("%s: got %s want %s", c.in, got, c.want)
		}
	}
}

func TestErrors(t *testing.T) {
	cases := []struct{ in, status, name, msg string }{
		{"filters[$or][title]=x", "400", "ValidationError", "Invalid parameter $or"},
		{"filters[$and][title]=x", "400", "ValidationError", "Invalid parameter $and"},
		{"filters[$foo][title]=x", "400", "ValidationError", "Invalid parameter $foo"},
		{"filters[author][$null]=true&filters[author][name]=Ann", "400", "ValidationError", "Invalid parameter author"},
		{"sort=title:up", "400", "ValidationError", "Invalid order in sort parameter title:up: order can only be one of asc|desc|ASC|DESC"},
		{"pagination[page]=abc", "400", "ValidationError", "Invalid parameter pagination[page]"},
		{"pagination[pageSize]=1.5", "400", "ValidationError", "Invalid parameter pagination[pageSize]"},
		{"pagination[page]=1&pagination[limit]=2", "400", "ValidationError", "Invalid pagination parameters. Expected either start/limit or page/pageSize"},
		{"pagination[withCount]=maybe", "400", "ValidationError", `Invalid withCount parameter. Expected "t","1","true","false","0","f"`},
		{"start=1", "400", "PaginationError", "Invalid pagination attributes. You cannot use page and offset pagination in the same query"},
		{"publicationState=bogus", "400", "ValidationError", "Invalid parameter publicationState"},
		{"filters[title][$eq][x]=1", "400", "ValidationError", "Invalid parameter $eq"},
		{"populate[tags][start]=0&populate[tags][page]=1", "400", "PaginationError", "Invalid pagination attributes. You cannot use page and offset pagination in the same query"},
	}
	for _, c := range cases {
		_, err := parse(t, c.in)
		var ae *apierror.Error
		if !errors.As(err, &ae) {
			t.Errorf("%s: want an API error, got %v", c.in, err)
			continue
		}
		if got := js(ae.Status); got != c.status || ae.Name != c.name || ae.Message != c.msg {
			t.Errorf("%s: got %d %s %q", c.in, ae.Status, ae.Name, ae.Message)
		}
	}
}

func TestSort(t *testing.T) {
	cases := []struct{ in, want string }{
		{"sort=title", "title+"},
		{"sort=title:desc", "title-"},
		{"sort=views:desc,title", "views- title+"},
		{"sort[0]=title:DESC&sort[1]=id", "title- id+"},
		{"sort[title]=desc&sort[views]=asc", "title- views+"},
		{"sort[author][name]=desc", "author.name-"},
		{"sort=author.name:asc", "author.name+"},
	}
	for _, c := range cases {
		q, err := parse(t, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		var parts []string
		for _, s := range q.Sort {
			d := "+"
			if s.Desc {
				d = "-"
			}
			parts = append(parts, strings.Join(s.Path, ".")+d)
		}
		if got := strings.Join(parts, " "); got != c.want {
			t.Errorf("%s: got %q want %q", c.in, got, c.want)
		}
	}
}

// popShape renders a populate tree compactly.
func popShape(p *ir.Populate) string {
	if p == nil {
		return ""
	}
	var parts []string
	if p.All {
		parts = append(parts, "*")
	}
	for _, c := range p.Children {
		s := c.Field
		if c.Populate != nil {
			s += "(" + popShape(c.Populate) + ")"
		}
		if len(c.Fields) > 0 {
			s += "[" + strings.Join(c.Fields, ",") + "]"
		}
		if c.Count {
			s += "#"
		}
		if c.Invalid != "" {
			s += "!"
		}
		for _, on := range c.On {
			s += "@" + on.Component
			if on.Field.Populate != nil {
				s += "(" + popShape(on.Field.Populate) + ")"
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestPopulate(t *testing.T) {
	cases := []struct{ in, want string }{
		{"populate=*", "*"},
		{"populate=author,tags", "author tags"},
		{"populate[0]=seo.image&populate[1]=tags", "seo(image) tags"},
		{"populate=author.articles,author.avatar", "author(avatar articles)"}, // Strapi prepends each further path of a group
		{"populate[author][fields][0]=name", "author[name]"},
		{"populate[author][populate][articles][populate]=*", "author(articles(*))"},
		{"populate[tags][count]=true", "tags#"},
		{"populate[blocks][on][shared.link][populate]=tag&populate[blocks][on][shared.seo][fields][0]=kind", "blocks@shared.link(tag)@shared.seo"},
		{"populate[author]=true&populate[seo]=true", "author seo"},
		{"populate[author]=false", ""},
		{"populate[blocks][populate]=*", "blocks(*)"},
		// Keys Strapi ignores unless they name an attribute: kept for the planner to decide.
		{"populate[seo][populate][fields][0]=title&populate[seo][populate][image]=true", "seo(fields! image)"},
		{"populate[*]=true", "*"},
		{"populate=navbar.links,navbar.logo.image,footer", "navbar(logo(image) links) footer"},
	}
	for _, c := range cases {
		q, err := parse(t, c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := popShape(q.Populate); got != c.want {
			t.Errorf("%s: got %q want %q", c.in, got, c.want)
		}
	}
}

func TestPopulateStrayAndDeep(t *testing.T) {
	q, err := parse(t, "populate[author][populate][fields][0]=name&populate[author][populate][sort]=name:desc")
	if err != nil {
		t.Fatal(err)
	}
	stray := q.Populate.Children[0].Populate.Stray
	if stray == nil || strings.Join(stray.Fields, ",") != "name" || len(stray.Sort) != 1 || !stray.Sort[0].Desc {
		t.Errorf("stray options not kept: %+v", stray)
	}
	for in, want := range map[string]int{
		"populate=deep": ir.DeepDefault, "populate=deep,3": 3, "populate[0]=deep&populate[1]=7": 7,
		"populate=deep,0": 1, "populate=deep,x": ir.DeepUnbounded, "populate=tags,deep": 0, "populate[deep]=true": 0,
	} {
		q, err := parse(t, in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if q.Populate.Deep != want {
			t.Errorf("%s: deep %d, want %d", in, q.Populate.Deep, want)
		}
	}
}

func TestPopulateRefusals(t *testing.T) {
	for in, msg := range map[string]string{
		"populate[0]=*":                                  "Invalid parameter populate",
		"populate[tags][populate][0]=*":                  "Invalid parameter populate[tags][populate]",
		"populate[tags][start]=-1":                       "Invalid parameter populate[tags][start]",
		"populate[tags][limit]=-2":                       "Invalid parameter populate[tags][limit]",
		"populate[tags][limit]=1.5":                      "Invalid parameter populate[tags][limit]",
		"populate[tags][page]=0":                         "Invalid 'page' parameter. Expected an integer > 0, received: 0",
		"populate[tags][pageSize]=x":                     "Invalid 'pageSize' parameter. Expected an integer > 0, received: undefined",
		"populate[tags][page]=1&populate[tags][limit]=1": "Invalid pagination attributes. You cannot use page and offset pagination in the same query",
		"sort[0][title]=desc&sort[1]=id":                 "Invalid parameter 0",
	} {
		_, err := parse(t, in)
		var ae *apierror.Error
		if !errors.As(err, &ae) || ae.Status != 400 || ae.Message != msg {
			t.Errorf("%s: got %v, want 400 %q", in, err, msg)
		}
	}
	for _, in := range []string{"populate[tags][limit]=-1", "populate[tags][limit]=0x2", "populate[tags][start]= 1 ", "sort[0][title]=desc&sort[1][id]=asc", "populate[nope][0]=x", "populate[0]=tags,*"} {
		if _, err := parse(t, in); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestPaginationAndFields(t *testing.T) {
	q, err := parse(t, "pagination[page]=2&pagination[pageSize]=10&pagination[withCount]=false&fields[0]=title&fields[1]=views&publicationState=preview")
	if err != nil {
		t.Fatal(err)
	}
	if *q.Pagination.Page != 2 || *q.Pagination.PageSize != 10 || *q.Pagination.WithCount {
		t.Errorf("pagination %+v", q.Pagination)
	}
	if strings.Join(q.Fields, ",") != "title,views" || q.PublicationState != "preview" {
		t.Errorf("fields %v state %q", q.Fields, q.PublicationState)
	}
	q, err = parse(t, "fields=*")
	if err != nil || q.Fields != nil {
		t.Errorf("fields=* gave %v %v", q.Fields, err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"filters[$or][0][title][$eq]=a&filters[$or][1][views][$gt]=3",
		"populate[author][populate][articles][populate]=*&sort=title:desc",
		"populate[blocks][on][shared.link][populate]=tag",
		"pagination[page]=2&pagination[pageSize]=10",
		"sort[author][name]=desc&fields[0]=title",
		"filters[title][$not][$contains]=x&populate=a.b.c,d",
		"filters[a][b][c][d][e][f][g][h][i][j][k][l][m][n][o][p][q][r][s][t][u]=1",
		"populate[contentSections][populate][feature][populate][fields][0]=title&populate[x][0]=y",
		"populate=deep,4&populate[seo][on]=x&populate[tags][page]=0x1&populate[tags][limit]=1e1",
		"populate[a][populate][populate][sort][0][b]=desc&populate[a][populate][filters][c]=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q := &ir.Query{}
		err := Parse(raw, q)
		if err != nil {
			var ae *apierror.Error
			if !errors.As(err, &ae) || ae.Status != 400 {
				t.Fatalf("non-400 error for %q: %v", raw, err)
			}
		}
	})
}
