package schemas

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadBlog(t *testing.T) {
	s, err := Load("../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	art, ok := s.ByPlural("articles")
	if !ok {
		t.Fatal("articles not found")
	}
	if _, ok := s.BySingular("homepage"); !ok {
		t.Fatal("homepage single type not found")
	}
	joins := map[string]Join{
		"author":  {Table: "articles_author_links", SourceCol: "article_id", TargetCol: "writer_id", InvOrderCol: "article_order"},
		"tags":    {Table: "articles_tags_links", SourceCol: "article_id", TargetCol: "tag_id", OrderCol: "tag_order"},
		"related": {Table: "articles_related_links", SourceCol: "article_id", TargetCol: "inv_article_id", OrderCol: "article_order"},
	}
	for name, want := range joins {
		a, _ := art.Attr(name)
		if *a.Link != want {
			t.Errorf("%s: join %+v, want %+v", name, *a.Link, want)
		}
	}
	w, _ := s.ByPlural("writers")
	arts, _ := w.Attr("articles")
	if want := (Join{Table: "articles_author_links", SourceCol: "writer_id", TargetCol: "article_id", OrderCol: "article_order"}); *arts.Link != want {
		t.Errorf("writer.articles join %+v, want %+v", *arts.Link, want)
	}
	friends, _ := w.Attr("friends")
	if want := (Join{Table: "writers_friends_links", SourceCol: "writer_id", TargetCol: "inv_writer_id", OrderCol: "writer_order", InvOrderCol: "inv_writer_order"}); *friends.Link != want {
		t.Errorf("writer.friends join %+v, want %+v", *friends.Link, want)
	}
	owned, _ := w.Attr("ownedTag")
	if want := (Join{Table: "tags_owner_links", SourceCol: "writer_id", TargetCol: "tag_id"}); *owned.Link != want {
		t.Errorf("writer.ownedTag join %+v, want %+v", *owned.Link, want)
	}
	if art.ComponentsTable != "articles_components" {
		t.Errorf("components table %q", art.ComponentsTable)
	}
	pd, _ := art.Attr("publishDate")
	if pd.Column != "publish_date" {
		t.Errorf("column %q", pd.Column)
	}
	last := art.Attributes[len(art.Attributes)-1]
	if last.Name != "publishedAt" {
		t.Errorf("last attribute %q, want publishedAt", last.Name)
	}
	link := s.Models["shared.link"]
	tag, _ := link.Attr("tag")
	if tag.Link.Table != "components_shared_links_tag_links" || tag.Link.SourceCol != "link_id" {
		t.Errorf("component relation join %+v", *tag.Link)
	}
}

func TestLoadBrokenNamesFileAndAttribute(t *testing.T) {
	_, err := Load("testdata/broken")
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("want *Error, got %v", err)
	}
	if se.Attribute != "title" || !strings.Contains(se.File, "schema.json") || !strings.Contains(se.Problem, "strin") {
		t.Fatalf("error does not name file/attribute/problem: %v", err)
	}
}

// TestLoadBothSidesInversedBy: a pair whose two sides both say inversedBy (Strapi's
// e-commerce template) loads as Strapi's metadata builds it: each side's link table made, the
// side built later (the api folders in byte order) giving both sides its own.
func TestLoadBothSidesInversedBy(t *testing.T) {
	s, err := Load("../e2e/testdata/projects/starter")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		uid, attr, table, src, tgt, order, invOrder, shadowed string
	}{
		{"api::shelf.shelf", "items", "shelves_items_links", "shelf_id", "item_id", "item_order", "shelf_order", ""},
		{"api::item.item", "shelves", "shelves_items_links", "item_id", "shelf_id", "shelf_order", "item_order", "items_shelves_links"},
		{"api::maker.maker", "gadget", "makers_gadget_links", "maker_id", "gadget_id", "", "", ""},
		{"api::gadget.gadget", "maker", "makers_gadget_links", "gadget_id", "maker_id", "", "", "gadgets_maker_links"},
	} {
		a, ok := s.Models[c.uid].Attr(c.attr)
		if !ok {
			t.Fatalf("%s.%s missing", c.uid, c.attr)
		}
		j := a.Link
		if j.Table != c.table || j.SourceCol != c.src || j.TargetCol != c.tgt || j.OrderCol != c.order || j.InvOrderCol != c.invOrder {
			t.Errorf("%s.%s: link %+v", c.uid, c.attr, j)
		}
		if got := ""; a.Shadowed != nil {
			got = a.Shadowed.Table
			if got != c.shadowed {
				t.Errorf("%s.%s: shadowed %s, want %q", c.uid, c.attr, got, c.shadowed)
			}
		} else if c.shadowed != "" {
			t.Errorf("%s.%s: not shadowed, want %s", c.uid, c.attr, c.shadowed)
		}
		if a.OwnsLink() != (c.shadowed == "") {
			t.Errorf("%s.%s: OwnsLink %v", c.uid, c.attr, a.OwnsLink())
		}
	}
}

// strapiLinks is testdata/linkmatrix/strapi_links.json: the link table of each relation
// attribute (null: none) and the columns of each link table, as Strapi 4.26.2's database
// metadata builds them for the folder (recorded by its record.js).
type strapiLinks struct {
	Attributes map[string]*struct {
		Table, Source, Target, Order, InvOrder string
	}
	Tables map[string][]string
}

func readStrapiLinks(t *testing.T) strapiLinks {
	t.Helper()
	data, err := os.ReadFile("testdata/linkmatrix/strapi_links.json")
	if err != nil {
		t.Fatal(err)
	}
	var want strapiLinks
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	return want
}

// TestLoadLinkMatrix: every relation of testdata/linkmatrix reads the link table Strapi's
// metadata gives it: inversedBy naming a mappedBy side that maps another attribute, or
// another type's attribute, or an owner (built before: shadowed; after: its own table), two
// owners naming one attribute, an attribute naming itself, a component naming a type's.
func TestLoadLinkMatrix(t *testing.T) {
	want := readStrapiLinks(t)
	s, err := Load("testdata/linkmatrix")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, m := range s.Models {
		for _, a := range m.Attributes {
			if a.Type != Relation || a.System || !strings.HasPrefix(m.UID, "api::") && m.Kind != Component {
				continue
			}
			key := m.UID + "." + a.Name
			w, ok := want.Attributes[key]
			if !ok {
				t.Errorf("%s: not in Strapi's metadata", key)
				continue
			}
			seen++
			if w == nil {
				if !a.Unlinked || a.Link != nil {
					t.Errorf("%s: link %+v, want none (Unlinked)", key, a.Link)
				}
				continue
			}
			j := a.Link
			if j == nil {
				t.Errorf("%s: no link, want %+v", key, *w)
				continue
			}
			if j.Table != w.Table || j.SourceCol != w.Source || j.TargetCol != w.Target || j.OrderCol != w.Order || j.InvOrderCol != w.InvOrder {
				t.Errorf("%s: link %+v, want %+v", key, *j, *w)
			}
			if own := a.OwnJoin(); own != nil {
				if cols, ok := want.Tables[own.Table]; !ok || cols[1] != own.SourceCol || cols[2] != own.TargetCol {
					t.Errorf("%s: owns %s (%s, %s), Strapi's tables: %v", key, own.Table, own.SourceCol, own.TargetCol, cols)
				}
			}
		}
	}
	if seen != len(want.Attributes) {
		t.Errorf("%d relations compared, Strapi has %d", seen, len(want.Attributes))
	}
}

// TestLoadInverseErrors: Strapi refuses to start when an inversedBy names no attribute of its
// target, or one that is not a relation, and for a oneToMany owner saying inversedBy; Quarry
// refuses with Strapi's words, on the owner's file and attribute (Strapi 4.26.2 printed the
// first two). An inversedBy naming a media attribute boots (Strapi's metadata takes media for a
// relation): the owner keeps its own table and the media its files.
func TestLoadInverseErrors(t *testing.T) {
	for _, c := range []struct {
		name, owner, other, problem string
	}{
		{"missing", `{"type":"relation","relation":"manyToOne","target":"api::other.other","inversedBy":"nothing"}`, `{"name":{"type":"string"}}`,
			"inversedBy attribute nothing not found target api::other.other"},
		{"not a relation", `{"type":"relation","relation":"manyToMany","target":"api::other.other","inversedBy":"name"}`, `{"name":{"type":"string"}}`,
			"inversedBy attribute name targets non relational attribute in api::other.other"},
		{"oneToMany owner", `{"type":"relation","relation":"oneToMany","target":"api::other.other","inversedBy":"back"}`,
			`{"back":{"type":"relation","relation":"manyToOne","target":"api::one.one","mappedBy":"link"}}`,
			"one side of a oneToMany cannot be the owner side in a bidirectional relation"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(api, attrs string) {
				p := dir + "/src/api/" + api + "/content-types/" + api
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
				src := `{"kind":"collectionType","info":{"singularName":"` + api + `","pluralName":"` + api + `s"},"attributes":` + attrs + `}`
				if err := os.WriteFile(p+"/schema.json", []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("one", `{"link":`+c.owner+`}`)
			write("other", c.other)
			_, err := Load(dir)
			var se *Error
			if !errors.As(err, &se) || se.Attribute != "link" || !strings.Contains(se.File, "/one/schema.json") || se.Problem != c.problem {
				t.Fatalf("got %v, want %q on one.link", err, c.problem)
			}
		})
	}
}

func TestLoadInverseMedia(t *testing.T) {
	dir := t.TempDir()
	for api, attrs := range map[string]string{
		"one":   `{"link":{"type":"relation","relation":"manyToOne","target":"api::other.other","inversedBy":"cover"}}`,
		"other": `{"cover":{"type":"media","multiple":false}}`,
	} {
		p := dir + "/src/api/" + api + "/content-types/" + api
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		src := `{"kind":"collectionType","info":{"singularName":"` + api + `","pluralName":"` + api + `s"},"attributes":` + attrs + `}`
		if err := os.WriteFile(p+"/schema.json", []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	link, _ := s.Models["api::one.one"].Attr("link")
	cover, _ := s.Models["api::other.other"].Attr("cover")
	if !link.OwnsLink() || link.Link.Table != "one_link_links" || link.Link.InvOrderCol != "one_order" || !cover.Link.Morph {
		t.Errorf("link %+v (owns %v), cover %+v", link.Link, link.OwnsLink(), cover.Link)
	}
}

// TestLoadBoundsStrapiIgnores: bounds Strapi applies only when they are numbers (the
// content-type builder writes a biginteger's as strings) load, and are ignored as Strapi
// ignores them, where Quarry refused to start.
func TestLoadBoundsStrapiIgnores(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "src", "api", "story", "content-types", "story")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	schema := `{"kind": "collectionType", "collectionName": "stories",
  "info": {"singularName": "story", "pluralName": "stories", "displayName": "Story"},
  "attributes": {
    "position": {"type": "biginteger", "required": true, "min": "1", "max": "900"},
    "rank": {"type": "integer", "min": 2, "max": "9"},
    "title": {"type": "string", "minLength": "3", "maxLength": 2.5}
  }}`
	if err := os.WriteFile(filepath.Join(p, "schema.json"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := s.Models["api::story.story"]
	pos, _ := m.Attr("position")
	rank, _ := m.Attr("rank")
	title, _ := m.Attr("title")
	if pos.Min != nil || pos.Max != nil || rank.Min == nil || *rank.Min != 2 || rank.Max != nil || title.MinLength != nil || title.MaxLength != nil {
		t.Errorf("bounds: position %v %v, rank %v %v, title %v %v", pos.Min, pos.Max, rank.Min, rank.Max, title.MinLength, title.MaxLength)
	}
}

// TestUnwrapSchema: a local plugin's schema file holding the content type object its index
// exports ({ schema: { … } }) is read as the schema it holds, as Strapi reads it; where
// Quarry refused to start (kind "").
func TestUnwrapSchema(t *testing.T) {
	wrapped := `{"schema": {"kind": "collectionType", "collectionName": "events", "info": {"singularName": "event", "pluralName": "events"}, "attributes": {"name": {"type": "string"}}}}`
	if got := string(unwrapSchema([]byte(wrapped))); !strings.HasPrefix(got, `{"kind": "collectionType"`) {
		t.Errorf("wrapped: %s", got)
	}
	plain := `{"kind": "collectionType", "attributes": {"schema": {"type": "string"}}}`
	if got := string(unwrapSchema([]byte(plain))); got != plain {
		t.Errorf("plain: %s", got)
	}
}
