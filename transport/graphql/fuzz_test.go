package graphql_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/parser/gqlschema"
)

// FuzzRequest sends arbitrary POST bodies through the whole request path (decoding,
// authentication, parsing, validation, lowering, planning, SQL on SQLite, shaping): it must
// never panic and must always answer a well-formed GraphQL response (an array of them for
// a batch), or one of Apollo Server's plain-text refusals.
var plainRefusals = map[string]bool{
	"POST body missing, invalid Content-Type, or JSON object has no keys.": true,
	"GraphQL queries must be strings.":                                     true,
	"Variables are invalid JSON.":                                          true,
}

func FuzzRequest(f *testing.F) {
	for _, seed := range []string{
		`{"query":"{ articles { data { id attributes { title } } } }"}`,
		`{"query":"{ articles(filters: {title: {containsi: \"a\"}, or: [{views: {gt: 1}}]}, sort: [\"title:desc\"], pagination: {page: 2, pageSize: 3}) { data { id } meta { pagination { total page pageSize pageCount } } } }"}`,
		`{"query":"query($f: ArticleFiltersInput, $p: PaginationArg) { articles(filters: $f, pagination: $p) { data { id } } }","variables":{"f":{"author":{"name":{"eq":"x"}}},"p":{"limit":-1}}}`,
		`{"query":"{ article(id: 1) { data { attributes { blocks { __typename ... on ComponentSharedQuote { text } } author { data { attributes { articles { data { id } } } } } } } } }"}`,
		`{"query":"mutation { createTag(data: {name: \"x\"}) { data { id attributes { name } } } }"}`,
		`{"query":"mutation($d: ArticleInput!) { createArticle(data: $d) { data { id } } }","variables":{"d":{"title":"abc","blocks":[{"__typename":"ComponentSharedSeo","metaTitle":"m"}]}}}`,
		`{"query":"{ __schema { types { name fields { name } } } }"}`,
		`{"query":"query A { __typename } query B { __typename }","operationName":"B"}`,
		`{"query":"{ tags { data { ...F } } } fragment F on TagEntity { id attributes { name owner { data { id } } } }"}`,
		`{"query":"{ articles(pagination: {page: 1, limit: 1}) { data { id } } }"}`,
		`{"query":"{ homepage { data { id } } }","variables":"{}"}`,
		`{"query":"mutation($d: TagInput!) { createTag(data: $d) { data { id } } }","variables":{"d":{"zz":[{"b":1,"a":2}],"name":"x","zz":3}}}`,
		`[{"query":"{ __typename }"}]`,
		`{"query":1}`,
		``,
		`[{"query":"{ __typename }"},{"query":"mutation { createTag(data: {name: \"b\"}) { data { id } } }"},1,{}]`,
		`"x"`,
		`{"query":"{ articles(filters: {views: {eq: 99999999999999}}) { data { id } } }"}`,
		`{"query":"query($w: Boolean!, $n: Int) { articles(sort: \"id\") { data { attributes { title @include(if: $w) tags(pagination: {limit: $n}) { data { id } } } } } }","variables":{"w":true,"n":1}}`,
		`{"query":"query($t: String!, $id: ID) { __type(name: $t) { name } article(id: $id) { data { id } } }","variables":{"t":"Tag","id":"1"}}`,
	} {
		f.Add([]byte(seed))
	}
	e := newEnv(f, gqlschema.DefaultConfig())
	e.q(`mutation { createWriter(data: {name: "Ann"}) { data { id } } }`)
	e.q(`mutation { createTag(data: {name: "t", owner: 1}) { data { id } } }`)
	e.q(`mutation { createArticle(data: {title: "Hello", publishedAt: "2024-01-01T00:00:00Z", tags: [1], author: 1, blocks: [{__typename: "ComponentSharedQuote", text: "q"}]}) { data { id } } }`)
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer x")
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
			if rec.Code != 400 || !plainRefusals[rec.Body.String()] {
				t.Fatalf("unexpected plain-text answer (%d): %q", rec.Code, rec.Body.String())
			}
			return
		}
		var batch []map[string]json.RawMessage
		if err := json.Unmarshal(rec.Body.Bytes(), &batch); err == nil {
			if rec.Code != 200 || len(batch) == 0 {
				t.Fatalf("batch answered %d: %s", rec.Code, rec.Body.String())
			}
			for _, r := range batch {
				_, hasData := r["data"]
				_, hasErrors := r["errors"]
				if !hasData && !hasErrors {
					t.Fatalf("batch item with neither data nor errors: %s", rec.Body.String())
				}
			}
			return
		}
		var resp map[string]json.RawMessage
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
			t.Fatalf("not a JSON object (%d): %q", rec.Code, rec.Body.String())
		}
		if _, isEnvelope := resp["error"]; isEnvelope && rec.Code == 400 {
			return // Strapi's body parser refusing a JSON scalar: SyntaxError envelope
		}
		_, hasData := resp["data"]
		_, hasErrors := resp["errors"]
		if !hasData && !hasErrors {
			t.Fatalf("neither data nor errors: %s", rec.Body.String())
		}
		switch rec.Code {
		case 200, 400, 405, 413:
		default:
			t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
		if rec.Code == 200 && !hasData {
			t.Fatalf("200 without data: %s", rec.Body.String())
		}
	})
}
