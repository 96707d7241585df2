package e2e

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// The plugins' routes answer as the served OpenAPI document says (the content types' shapes
// are checked against real Strapi's recorded answers in transport/openapi).
func TestOpenAPIAnswers(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyBlog(t)
			env := append(be.Env(t), "API_TOKEN_SALT=openapi-answers", "LOG_LEVEL=warn")
			token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "oa", "--type", "full-access"))
			quarry(t, env, "permissions", "grant", "--app", app, "--role", "authenticated", "plugin::users-permissions.user.find")
			srv := serve(t, env, app, token)
			st, raw := srv.doAs(t, "", "GET", "/documentation/v1.0.0/openapi.json", nil)
			if st != 200 {
				t.Fatalf("document: %d", st)
			}
			doc, err := openapi3.NewLoader().LoadFromData(raw)
			if err != nil {
				t.Fatal(err)
			}
			doc.Servers = openapi3.Servers{{URL: srv.URL + "/api"}}
			router, err := legacy.NewRouter(doc)
			if err != nil {
				t.Fatal(err)
			}
			check := func(method, path string, status int, body []byte) {
				t.Helper()
				req, _ := http.NewRequest(method, srv.URL+path, nil)
				route, params, err := router.FindRoute(req)
				if err != nil {
					t.Errorf("%s %s: not in the document: %v", method, path, err)
					return
				}
				err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
					RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
					Status:                 status,
					Header:                 http.Header{"Content-Type": {"application/json"}},
					Body:                   io.NopCloser(bytes.NewReader(body)),
					Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
				})
				if err != nil {
					t.Errorf("%s %s → %d %s: does not match the document: %v", method, path, status, body, err)
				}
			}
			r := srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"oa","email":"oa@example.com","password":"s3cret-pw"}`)
			check("POST", "/api/auth/local/register", r.Status, r.Body)
			jwt := between(string(r.Body), `"jwt":"`, `"`)
			userID := between(string(r.Body), `"user":{"id":`, `,`)
			r = srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"oa","password":"s3cret-pw"}`)
			check("POST", "/api/auth/local", r.Status, r.Body)
			r = srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"oa","password":"wrong"}`)
			check("POST", "/api/auth/local", r.Status, r.Body)
			r = srv.call(t, jwt, "GET", "/api/users/me", "")
			check("GET", "/api/users/me", r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/users", "")
			check("GET", "/api/users", r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/users/"+userID, "")
			check("GET", "/api/users/"+userID, r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/users/999", "")
			check("GET", "/api/users/999", r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/users/count", "")
			check("GET", "/api/users/count", r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/users-permissions/roles", "")
			check("GET", "/api/users-permissions/roles", r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/i18n/locales", "")
			check("GET", "/api/i18n/locales", r.Status, r.Body)
			st, body := srv.upload(t, "/api/upload", filepart("files", "cover.png", "image/png", pngOf(t, 400, 300)), field("fileInfo", `{"alternativeText":"A cover"}`))
			check("POST", "/api/upload", st, body)
			r = srv.call(t, token, "GET", "/api/upload/files", "")
			check("GET", "/api/upload/files", r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/upload/files/1", "")
			check("GET", "/api/upload/files/1", r.Status, r.Body)
			r = srv.call(t, token, "POST", "/api/writers", `{"data":{"name":"Ann","avatar":1}}`)
			check("POST", "/api/writers", r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/writers?populate=*", "")
			check("GET", "/api/writers", r.Status, r.Body)
			r = srv.call(t, token, "GET", "/api/writers?sort=nope", "")
			check("GET", "/api/writers", r.Status, r.Body)
		})
	}
}

func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		return s[:j]
	}
	return ""
}
