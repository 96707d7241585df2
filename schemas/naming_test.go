package schemas

import "testing"

func TestSnakeCase(t *testing.T) {
	cases := map[string]string{
		"publishDate":                       "publish_date",
		"provider_metadata":                 "provider_metadata",
		"alternativeText":                   "alternative_text",
		"friendOf":                          "friend_of",
		"big2":                              "big_2",
		"XMLHttpRequest":                    "xml_http_request",
		"blog-post":                         "blog_post",
		"articles_author_links":             "articles_author_links",
		"components_shared_links_tag_links": "components_shared_links_tag_links",
		"a":                                 "a",
	}
	for in, want := range cases {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCamelCase(t *testing.T) {
	cases := map[string]string{
		"users-permissions":    "usersPermissions",
		"blog_post":            "blogPost",
		"component_shared.seo": "componentSharedSeo",
		"i18n":                 "i18N",
	}
	for in, want := range cases {
		if got := CamelCase(in); got != want {
			t.Errorf("CamelCase(%q) = %q, want %q", in, got, want)
		}
	}
}
