package gqlschema

import (
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

// TestEnumNameOption checks that an enumeration's enumName option names its GraphQL enum.
func TestEnumNameOption(t *testing.T) {
	s, err := schemas.Load("../../examples/blog")
	if err != nil {
		t.Fatal(err)
	}
	art := s.Models["api::article.article"]
	cat, _ := art.Attr("category")
	cat.EnumName = "ArticleCategory"
	gs, err := Build(s, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if gs.AST.Types["ArticleCategory"] == nil {
		t.Fatal("enumName was not used for the enum type")
	}
	if gs.AST.Types["ENUM_ARTICLE_CATEGORY"] != nil {
		t.Fatal("the default enum name is still generated")
	}
	if f := gs.AST.Types["Article"].Fields.ForName("category"); f == nil || f.Type.Name() != "ArticleCategory" {
		t.Fatalf("Article.category has type %v", f)
	}
}
