package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRESTBehaviour covers what the recorded conformance run does not: authentication,
// limits, Quarry's deliberate 400s, case-sensitive $contains and transactional writes.
func TestRESTBehaviour(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			srv := start(t, be, "../examples/blog")
			readOnly := strings.TrimSpace(quarry(t, srv.Env, "tokens", "create", "--app", srv.App, "--name", "ro", "--type", "read-only"))

			mustStatus := func(status int, want int, body []byte, contains string) {
				t.Helper()
				if status != want || !strings.Contains(string(body), contains) {
					t.Fatalf("got %d %s, want %d containing %s", status, body, want, contains)
				}
			}
			st, b := srv.doAs(t, "", "GET", "/_health", nil)
			mustStatus(st, 204, b, "")

			st, b = srv.doAs(t, "", "GET", "/api/articles", nil)
			mustStatus(st, 403, b, `{"data":null,"error":{"status":403,"name":"ForbiddenError","message":"Forbidden","details":{}}}`)
			st, b = srv.doAs(t, "nope", "GET", "/api/articles", nil)
			mustStatus(st, 401, b, `"message":"Missing or invalid credentials"`)
			st, b = srv.doAs(t, readOnly, "GET", "/api/articles", nil)
			mustStatus(st, 200, b, `"pagination"`)
			st, b = srv.doAs(t, readOnly, "POST", "/api/tags", []byte(`{"data":{"name":"x"}}`))
			mustStatus(st, 403, b, `"name":"ForbiddenError"`)

			// Case-sensitive $contains on every database; $containsi is not.
			st, b = srv.do(t, "POST", "/api/tags", []byte(`{"data":{"name":"Hello World"}}`))
			mustStatus(st, 200, b, `"name":"Hello World"`)
			st, b = srv.do(t, "GET", "/api/tags?filters[name][$contains]=hello", nil)
			mustStatus(st, 200, b, `"data":[]`)
			st, b = srv.do(t, "GET", "/api/tags?filters[name][$containsi]=hello", nil)
			mustStatus(st, 200, b, `"Hello World"`)

			// Where Strapi widens or crashes, Quarry answers 400 naming the parameter.
			for _, q := range []string{
				"filters[name][$foo]=x", "filters[name][$Eq]=x", "pagination[page]=abc", "sort=name:up",
				"filters[$or][name]=x", "filters[id][$gt]=abc", "publicationState=bogus",
			} {
				st, b = srv.do(t, "GET", "/api/tags?"+q, nil)
				mustStatus(st, 400, b, `"name":"ValidationError"`)
			}
			// Private fields cannot be reached, directly or through relations.
			for _, q := range []string{
				"filters[email][$startsWith]=a", "sort=email", "fields[0]=email",
				"filters[articles][password][$startsWith]=$2", "filters[articles][secret][$null]=false",
			} {
				st, b = srv.do(t, "GET", "/api/writers?"+q, nil)
				mustStatus(st, 400, b, `"message":"Invalid parameter`)
			}

			// Bodies over 1 MB are refused with 413.
			big := `{"data":{"name":"` + strings.Repeat("x", 1<<20) + `"}}`
			st, b = srv.do(t, "POST", "/api/tags", []byte(big))
			mustStatus(st, 413, b, `"name":"PayloadTooLargeError"`)

			// A write that fails validation in a component leaves nothing behind.
			count := func() int {
				_, b := srv.do(t, "GET", "/api/articles?publicationState=preview", nil)
				var env struct {
					Meta struct {
						Pagination struct{ Total int } `json:"pagination"`
					} `json:"meta"`
				}
				if err := json.Unmarshal(b, &env); err != nil {
					t.Fatal(err)
				}
				return env.Meta.Pagination.Total
			}
			before := count()
			st, b = srv.do(t, "POST", "/api/articles", []byte(`{"data":{"title":"Valid title","links":[{"label":"ok"}],"seo":{"metaDescription":"no title"}}}`))
			mustStatus(st, 400, b, `seo.metaTitle must be defined.`)
			if after := count(); after != before {
				t.Fatalf("failed create left %d entries behind", after-before)
			}

			// PATCH is not a route: 405 in plain text, as Strapi's router answers.
			st, b = srv.do(t, "PATCH", "/api/tags/1", []byte(`{}`))
			mustStatus(st, 405, b, "Method Not Allowed")
		})
	}
}
