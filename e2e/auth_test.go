package e2e

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/quarrycms/quarry/transport/plugins/email/emailtest"
)

// The users-permissions tests run on a copy of examples/blog with what they need added:
// articles get an `editor` relation to the users-permissions user (Strapi's own example of a
// relation to users), and config files set a JWT secret, permissions and rate limits.
// (examples/blog itself stays as e2e/testdata/blog_rest.json was recorded.)

const testJWTSecret = "quarry-e2e-jwt-secret"

// authApp copies examples/blog into a temporary app folder and adds the editor relation and
// config files (name → content, under config/). Unless config/plugins.json configures the
// email plugin, e-mails go to a test SMTP server (Strapi's default provider would try the
// recipients' real mail exchangers).
func authApp(t *testing.T, configs map[string]string) string {
	t.Helper()
	dir, _ := mailApp(t, configs)
	return dir
}

// mailApp is authApp that also returns the SMTP server its e-mails go to (nil when the
// configs set their own email plugin configuration).
func mailApp(t *testing.T, configs map[string]string) (string, *emailtest.Server) {
	t.Helper()
	var mail *emailtest.Server
	if !strings.Contains(configs["plugins.json"], `"email"`) {
		var err error
		if mail, err = emailtest.Start(emailtest.Options{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { mail.Close() })
		merged := map[string]json.RawMessage{}
		if p := configs["plugins.json"]; p != "" {
			if err := json.Unmarshal([]byte(p), &merged); err != nil {
				t.Fatal(err)
			}
		}
		merged["email"] = json.RawMessage(fmt.Sprintf(`{"config": {"provider": "nodemailer", "providerOptions": {"host": "127.0.0.1", "port": %d}}}`, mail.Port))
		b, _ := json.Marshal(merged)
		configs = maps.Clone(configs)
		if configs == nil {
			configs = map[string]string{}
		}
		configs["plugins.json"] = string(b)
	}
	return appWith(t, configs), mail
}

func appWith(t *testing.T, configs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, "../examples/blog/src", filepath.Join(dir, "src"))
	copyTree(t, "../examples/blog/config", filepath.Join(dir, "config"))
	schema := filepath.Join(dir, "src/api/article/content-types/article/schema.json")
	raw, err := os.ReadFile(schema)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	attrs := doc["attributes"].(map[string]any)
	attrs["editor"] = map[string]any{"type": "relation", "relation": "oneToOne", "target": "plugin::users-permissions.user"}
	// encoding/json sorts keys: attribute order changes, which these tests do not depend on.
	out, _ := json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(schema, out, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, content := range configs {
		path := filepath.Join(dir, "config", name)
		if old, err := os.ReadFile(path); err == nil {
			// Merge top-level keys into the example's own file (plugins.json holds i18n).
			var base, add map[string]json.RawMessage
			if json.Unmarshal(old, &base) == nil && json.Unmarshal([]byte(content), &add) == nil {
				for k, v := range add {
					base[k] = v
				}
				b, _ := json.Marshal(base)
				content = string(b)
			}
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// resp is an HTTP answer.
type resp struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r resp) String() string { return fmt.Sprintf("%d %s", r.Status, r.Body) }

// call sends a request with optional bearer token and extra headers ("K: V").
func (s *server) call(t *testing.T, token, method, path string, body string, headers ...string) resp {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp{res.StatusCode, res.Header, b}
}

// openDB opens the server's database directly (for checks and clock tricks).
func openDB(t *testing.T, s *server) *sql.DB {
	t.Helper()
	env := map[string]string{}
	for _, kv := range s.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	var db *sql.DB
	var err error
	switch env["DATABASE_CLIENT"] {
	case "postgres":
		db, err = sql.Open("pgx", env["DATABASE_URL"])
	case "mysql":
		db, err = sql.Open("mysql", mysqlDSN(t, env["DATABASE_URL"]))
	default:
		db, err = sql.Open("sqlite", "file:"+env["DATABASE_FILENAME"]+"?_pragma=busy_timeout(10000)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func isSQLite(s *server) bool {
	return !isPostgres(s) && !slices.Contains(s.Env, "DATABASE_CLIENT=mysql")
}

func isPostgres(s *server) bool {
	for _, kv := range s.Env {
		if kv == "DATABASE_CLIENT=postgres" {
			return true
		}
	}
	return false
}

// rebind turns ? placeholders into $n for PostgreSQL, and "quoted" identifiers into MySQL's
// `quoted` ones.
func rebind(s *server, q string) string {
	if slices.Contains(s.Env, "DATABASE_CLIENT=mysql") {
		return strings.ReplaceAll(q, `"`, "`")
	}
	if !isPostgres(s) {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// signJWT signs an HS256 (or other alg name) token by hand, for forged-token cases.
func signJWT(secret, header, payload string) string {
	enc := base64.RawURLEncoding
	h, p := enc.EncodeToString([]byte(header)), enc.EncodeToString([]byte(payload))
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(h + "." + p))
	return h + "." + p + "." + enc.EncodeToString(m.Sum(nil))
}

func jsonField(t *testing.T, b []byte, path ...string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %s", b)
	}
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func expect(t *testing.T, r resp, status int, contains ...string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("got %s, want status %d", r, status)
	}
	for _, c := range contains {
		if !strings.Contains(string(r.Body), c) {
			t.Fatalf("got %s, want it to contain %s", r, c)
		}
	}
}

func refute(t *testing.T, r resp, absent ...string) {
	t.Helper()
	for _, c := range absent {
		if strings.Contains(string(r.Body), c) {
			t.Fatalf("got %s, which must not contain %s", r, c)
		}
	}
}

// eventually retries until check passes (a grant made by another process shows within the
// server's permission cache TTL).
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if check() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: not within 10s", what)
}

const authPermissions = `{
  "public": ["api::article.article.find", "api::article.article.findOne"],
  "authenticated": ["api::article.article.*", "api::writer.writer.find", "api::tag.tag.find"]
}`

const authPlugins = `{
  "users-permissions": {"config": {"jwtSecret": "` + testJWTSecret + `", "jwt": {"expiresIn": "7d"},
    "ratelimit": {"interval": 60000, "max": 10}}}
}`

func TestUsersPermissions(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := authApp(t, map[string]string{"permissions.json": authPermissions, "plugins.json": authPlugins})
			srv := start(t, be, app)
			full := srv.Token
			db := openDB(t, srv)

			// Security headers on every answer, errors included; CORS reflects the origin.
			r := srv.call(t, "", "GET", "/api/nothing", "", "Origin: https://app.example")
			expect(t, r, 404)
			for k, v := range map[string]string{
				"X-Frame-Options": "SAMEORIGIN", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
				"Strict-Transport-Security": "max-age=31536000; includeSubDomains", "X-Dns-Prefetch-Control": "off",
				"X-Download-Options": "noopen", "X-Permitted-Cross-Domain-Policies": "none",
				"Access-Control-Allow-Origin": "https://app.example", "Access-Control-Allow-Credentials": "true", "Vary": "Origin",
			} {
				if got := r.Header.Get(k); got != v {
					t.Fatalf("%s: got %q, want %q", k, got, v)
				}
			}
			if csp := r.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "connect-src 'self' https:;img-src") || !strings.Contains(csp, "frame-ancestors 'self'") {
				t.Fatalf("Content-Security-Policy: %q", csp)
			}
			r = srv.call(t, "", "OPTIONS", "/api/articles", "", "Origin: https://app.example", "Access-Control-Request-Method: POST")
			if r.Status != 204 || r.Header.Get("Access-Control-Allow-Methods") != "GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS" ||
				r.Header.Get("Access-Control-Allow-Headers") != "Content-Type,Authorization,Origin,Accept" || r.Header.Get("Access-Control-Max-Age") != "31536000" {
				t.Fatalf("preflight: %s %v", r, r.Header)
			}

			// Roles exist from the first start.
			r = srv.call(t, full, "GET", "/api/users-permissions/roles", "")
			expect(t, r, 200, `"name":"Authenticated","description":"Default role given to authenticated user.","type":"authenticated"`,
				`"name":"Public","description":"Default role given to unauthenticated user.","type":"public"`, `"nb_users":0`)

			// A role is created with its permissions, renamed, and removed, each in one
			// transaction.
			r = srv.call(t, full, "POST", "/api/users-permissions/roles",
				`{"name":"Editors","description":"edit","type":"editors","permissions":{"api::tag":{"controllers":{"tag":{"find":{"enabled":true}}}}}}`)
			expect(t, r, 200, `{"ok":true}`)
			r = srv.call(t, full, "GET", "/api/users-permissions/roles/3", "")
			expect(t, r, 200, `"name":"Editors"`, `"find":{"enabled":true,"policy":""}`)
			expect(t, srv.call(t, full, "PUT", "/api/users-permissions/roles/3", `{"name":"Writers"}`), 200, `{"ok":true}`)
			expect(t, srv.call(t, full, "GET", "/api/users-permissions/roles/3", ""), 200, `"name":"Writers"`)
			expect(t, srv.call(t, full, "DELETE", "/api/users-permissions/roles/3", ""), 200, `{"ok":true}`)
			expect(t, srv.call(t, full, "GET", "/api/users-permissions/roles/3", ""), 404)

			// Register: {jwt, user}; the e-mail is lower-cased; role, confirmed and blocked
			// cannot be chosen by the client.
			r = srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"ann","email":"Ann@Example.com","password":"s3cret-pw","role":2,"blocked":true,"confirmed":false,"resetPasswordToken":"x"}`)
			expect(t, r, 200, `"user":{"id":1,"username":"ann","email":"ann@example.com","provider":"local","confirmed":true,"blocked":false,"createdAt":`)
			refute(t, r, "password", "Token", "$2a$")
			annJWT := jsonField(t, r.Body, "jwt").(string)
			parts := strings.Split(annJWT, ".")
			payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
			var claims map[string]float64
			json.Unmarshal(payload, &claims)
			if !strings.HasPrefix(string(payload), `{"id":1,"iat":`) || claims["exp"]-claims["iat"] != 7*24*3600 {
				t.Fatalf("JWT payload %s", payload)
			}
			r = srv.call(t, full, "GET", "/api/users/1?populate=role", "")
			expect(t, r, 200, `"role":{"id":1,"name":"Authenticated"`)

			r = srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"ann","email":"other@example.com","password":"s3cret-pw"}`)
			expect(t, r, 400, `{"data":null,"error":{"status":400,"name":"ApplicationError","message":"Email or Username are already taken","details":{}}}`)
			r = srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"bo","email":"bad","password":"x"}`)
			expect(t, r, 400, `"message":"email must be a valid email"`)
			r = srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"bo","email":"bo@example.com","password":"x"}`)
			expect(t, r, 400, `"message":"2 errors occurred"`, `username must be at least 3 characters`, `password must be at least 6 characters`)
			r = srv.call(t, "", "POST", "/api/auth/local/register", `{}`)
			expect(t, r, 400, `"message":"3 errors occurred"`, `email is a required field`)
			r = srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"bob","email":"bob@example.com","password":"another-pw"}`)
			expect(t, r, 200, `"username":"bob"`)
			bobJWT := jsonField(t, r.Body, "jwt").(string)

			// Login by e-mail (any case) or username.
			r = srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"ANN@example.com","password":"s3cret-pw"}`)
			expect(t, r, 200, `"jwt":"`, `"user":{"id":1,"username":"ann"`)
			refute(t, r, "password", "$2a$")
			r = srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"ann","password":"s3cret-pw"}`)
			expect(t, r, 200, `"username":"ann"`)
			r = srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"ann","password":"wrong-pw"}`)
			expect(t, r, 400, `{"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid identifier or password","details":{}}}`)
			r = srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"nobody","password":"wrong-pw"}`)
			expect(t, r, 400, `"message":"Invalid identifier or password"`)
			r = srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"ann"}`)
			expect(t, r, 400, `"message":"password is a required field"`)

			// me: the JWT's user; public → 403; an API token has no user → 401.
			r = srv.call(t, annJWT, "GET", "/api/users/me", "")
			expect(t, r, 200, `{"id":1,"username":"ann","email":"ann@example.com","provider":"local","confirmed":true,"blocked":false,"createdAt":`)
			refute(t, r, "password")
			r = srv.call(t, annJWT, "GET", "/api/users/me?populate=role", "")
			expect(t, r, 200)
			refute(t, r, `"role"`) // the authenticated role may not find roles
			expect(t, srv.call(t, "", "GET", "/api/users/me", ""), 403, `"message":"Forbidden"`)
			expect(t, srv.call(t, full, "GET", "/api/users/me", ""), 401, `"message":"Unauthorized"`)
			expect(t, srv.call(t, annJWT, "GET", "/api/users", ""), 403)

			// Users as an admin client (full-access token): raw answers.
			r = srv.call(t, full, "GET", "/api/users?sort=id:desc&fields[0]=username", "")
			expect(t, r, 200, `[{"id":2,"username":"bob"},{"id":1,"username":"ann"}]`)
			if r = srv.call(t, full, "GET", "/api/users/count", ""); r.Status != 200 || string(r.Body) != "2" {
				t.Fatalf("count: %s", r)
			}
			r = srv.call(t, full, "GET", "/api/users/99", "")
			if r.Status != 204 || len(r.Body) != 0 {
				t.Fatalf("missing user: %s", r)
			}
			expect(t, srv.call(t, full, "GET", "/api/users?filters[password][$startsWith]=$2", ""), 400, `"message":"Invalid parameter password"`)
			r = srv.call(t, full, "POST", "/api/users", `{"username":"cyd","email":"Cy@example.com","password":"cy-password","role":1}`)
			expect(t, r, 201, `"username":"cyd","email":"cy@example.com"`, `"confirmed":false`, `"role":{"id":1,`)
			r = srv.call(t, full, "PUT", "/api/users/3", `{"username":"cyril","password":"new-password","resetPasswordToken":"forged"}`)
			expect(t, r, 200, `"username":"cyril"`, `"role":{"id":1`)
			refute(t, r, "forged", "password")
			expect(t, srv.call(t, full, "PUT", "/api/users/3", `{"username":"ann"}`), 400, `"message":"Username already taken"`)
			expect(t, srv.call(t, full, "PUT", "/api/users/99", `{"username":"zzz"}`), 404, `"message":"User not found"`)
			expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"cyril","password":"new-password"}`), 200)
			expect(t, srv.call(t, full, "DELETE", "/api/users/3", ""), 200, `"username":"cyril"`)
			r = srv.call(t, full, "DELETE", "/api/users/3", "")
			if r.Status != 204 {
				t.Fatalf("delete again: %s", r)
			}

			// Content: public may read articles but not writers, so populate leaves author out
			// and filters or sorts through it are refused; the authenticated role may.
			seed := func(path, body string) float64 {
				r := srv.call(t, full, "POST", path, body)
				expect(t, r, 200)
				return jsonField(t, r.Body, "data", "id").(float64)
			}
			writer := seed("/api/writers", `{"data":{"name":"Wanda","email":"wanda@example.com"}}`)
			seed("/api/articles", fmt.Sprintf(`{"data":{"title":"Edited","secret":"TOPSECRET-1","password":"article-pw","author":%v,"editor":1,"publishedAt":"2024-01-01T00:00:00Z"}}`, writer))
			r = srv.call(t, "", "GET", "/api/articles?populate=*", "")
			expect(t, r, 200, `"title":"Edited"`, `"related":{"data":[]}`)
			refute(t, r, `"tags"`)
			refute(t, r, `"author"`, `"editor"`, "TOPSECRET", "$2a$")
			expect(t, srv.call(t, "", "GET", "/api/articles?filters[author][name][$eq]=Wanda", ""), 400, `"message":"Invalid parameter author"`)
			expect(t, srv.call(t, "", "GET", "/api/articles?sort=author.name", ""), 400, `"message":"Invalid parameter author"`)
			r = srv.call(t, annJWT, "GET", "/api/articles?populate=*", "")
			expect(t, r, 200, `"author":{"data":{"id":1,"attributes":{"name":"Wanda"`)
			refute(t, r, `"editor"`, "wanda@example.com") // no user.find; writer e-mail is private
			// The editor (a user) is reachable only with user.find, and never its secrets.
			r = srv.call(t, full, "GET", "/api/articles?populate[editor][populate]=*", "")
			expect(t, r, 200, `"editor":{"data":{"id":1,"attributes":{"username":"ann","email":"ann@example.com","provider":"local","confirmed":true,"blocked":false,"createdAt":`)
			refute(t, r, "$2a$", "password", "Token")
			for _, q := range []string{"filters[editor][password][$startsWith]=$2", "sort=editor.password", "populate[editor][fields][0]=password",
				"filters[editor][resetPasswordToken][$null]=false", "populate[editor][filters][password][$startsWith]=$", "filters[editor][role][users][id][$gt]=0"} {
				r = srv.call(t, full, "GET", "/api/articles?"+q, "")
				expect(t, r, 400, `"name":"ValidationError","message":"Invalid parameter `)
			}
			expect(t, srv.call(t, annJWT, "GET", "/api/articles?filters[editor][username][$eq]=ann", ""), 400, `"message":"Invalid parameter editor"`)
			// A caller that may not find users cannot link one either (Strapi strips the relation).
			r = srv.call(t, annJWT, "POST", "/api/articles?populate=editor", `{"data":{"title":"By Ann","editor":2}}`)
			expect(t, r, 200, `"title":"By Ann"`)
			id := jsonField(t, r.Body, "data", "id").(float64)
			r = srv.call(t, full, "GET", fmt.Sprintf("/api/articles/%v?populate=editor", id), "")
			expect(t, r, 200, `"editor":{"data":null}`)

			// Grant and revoke from another process change access live.
			expect(t, srv.call(t, "", "GET", "/api/tags", ""), 403, `"message":"Forbidden"`)
			quarry(t, srv.Env, "permissions", "grant", "--app", app, "--role", "public", "api::tag.tag.find")
			eventually(t, "grant", func() bool { return srv.call(t, "", "GET", "/api/tags", "").Status == 200 })
			out := quarry(t, srv.Env, "permissions", "list", "--app", app, "--role", "public")
			if !strings.Contains(out, "public\tapi::tag.tag.find") {
				t.Fatalf("permissions list: %s", out)
			}
			quarry(t, srv.Env, "permissions", "revoke", "--app", app, "--role", "public", "api::tag.tag.find")
			eventually(t, "revoke", func() bool { return srv.call(t, "", "GET", "/api/tags", "").Status == 403 })
			// Populate follows the grant too: author shows once public may find writers.
			quarry(t, srv.Env, "permissions", "grant", "--app", app, "--role", "public", "api::writer.writer.find")
			eventually(t, "populate after grant", func() bool {
				return strings.Contains(string(srv.call(t, "", "GET", "/api/articles?populate=author", "").Body), `"author":{"data":{"id":1`)
			})
			quarry(t, srv.Env, "permissions", "revoke", "--app", app, "--role", "public", "api::writer.writer.find")
			eventually(t, "populate after revoke", func() bool {
				r := srv.call(t, "", "GET", "/api/articles?populate=author", "")
				return r.Status == 200 && !strings.Contains(string(r.Body), `"author"`)
			})

			// A custom token may do exactly its actions.
			custom := strings.TrimSpace(quarry(t, srv.Env, "tokens", "create", "--app", app, "--name", "custom", "--type", "custom",
				"--actions", "api::article.article.find,api::tag.tag.find", "--lifespan", "30"))
			r = srv.call(t, custom, "GET", "/api/articles?populate=author", "")
			expect(t, r, 200, `"title":"Edited"`)
			refute(t, r, `"author"`)
			expect(t, srv.call(t, custom, "GET", "/api/tags", ""), 200)
			expect(t, srv.call(t, custom, "GET", "/api/articles/1", ""), 403, `"message":"Forbidden"`)
			expect(t, srv.call(t, custom, "POST", "/api/articles", `{"data":{"title":"Nope"}}`), 403)
			expect(t, srv.call(t, custom, "GET", "/api/writers", ""), 403)
			expect(t, srv.call(t, custom, "GET", "/api/users", ""), 403)
			out = quarry(t, srv.Env, "tokens", "list", "--app", app)
			if !strings.Contains(out, "custom\tcustom\texpires ") || !strings.Contains(out, "api::article.article.find,api::tag.tag.find") {
				t.Fatalf("tokens list: %s", out)
			}
			var lastUsed sql.NullBool
			if err := db.QueryRow(`SELECT last_used_at IS NOT NULL FROM strapi_api_tokens WHERE name = 'custom'`).Scan(&lastUsed); err != nil || !lastUsed.Bool {
				t.Fatalf("last_used_at not recorded: %v %v", lastUsed, err)
			}
			// Revoked: refused within the token cache's few seconds.
			quarry(t, srv.Env, "tokens", "revoke", "--app", app, "custom")
			eventually(t, "token revoke", func() bool { return srv.call(t, custom, "GET", "/api/tags", "").Status == 401 })

			// An expired token: 401 "Token expired".
			short := strings.TrimSpace(quarry(t, srv.Env, "tokens", "create", "--app", app, "--name", "short", "--type", "full-access", "--lifespan", "7"))
			expect(t, srv.call(t, short, "GET", "/api/articles", ""), 200)
			past := any(time.Now().Add(-time.Hour).UnixMilli())
			if !isSQLite(srv) {
				past = time.Now().Add(-time.Hour).UTC()
			}
			if _, err := db.Exec(rebind(srv, `UPDATE strapi_api_tokens SET expires_at = ? WHERE name = 'short'`), past); err != nil {
				t.Fatal(err)
			}
			eventually(t, "token expiry", func() bool {
				r := srv.call(t, short, "GET", "/api/articles", "")
				return r.Status == 401 && strings.Contains(string(r.Body), `"message":"Token expired"`)
			})

			// Expired, forged and alg-none JWTs are refused; a blocked user's JWT stops working.
			now := time.Now().Unix()
			expired := signJWT(testJWTSecret, `{"alg":"HS256","typ":"JWT"}`, fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d}`, now-7200, now-3600))
			expect(t, srv.call(t, expired, "GET", "/api/users/me", ""), 401, `"message":"Missing or invalid credentials"`)
			none := strings.Join(strings.Split(signJWT("x", `{"alg":"none","typ":"JWT"}`, fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d}`, now, now+3600)), ".")[:2], ".") + "."
			expect(t, srv.call(t, none, "GET", "/api/users/me", ""), 401)
			expect(t, srv.call(t, signJWT("wrong-secret", `{"alg":"HS256","typ":"JWT"}`, fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d}`, now, now+3600)), "GET", "/api/users/me", ""), 401)
			expect(t, srv.call(t, bobJWT, "GET", "/api/users/me", ""), 200, `"username":"bob"`)
			expect(t, srv.call(t, full, "PUT", "/api/users/2", `{"blocked":true}`), 200, `"blocked":true`)
			expect(t, srv.call(t, bobJWT, "GET", "/api/users/me", ""), 401, `"message":"Invalid credentials"`)
			expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"bob","password":"another-pw"}`), 400,
				`{"data":null,"error":{"status":400,"name":"ApplicationError","message":"Your account has been blocked by an administrator","details":{}}}`)

			// Change password: the old one stops working.
			r = srv.call(t, annJWT, "POST", "/api/auth/change-password", `{"currentPassword":"s3cret-pw","password":"n3w-secret","passwordConfirmation":"n3w-secret"}`)
			expect(t, r, 200, `"jwt":"`, `"username":"ann"`)
			expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"ann","password":"s3cret-pw"}`), 400)
			expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"ann","password":"n3w-secret"}`), 200)

			// Forgot/reset password (the e-mail itself is checked in email_test.go).
			expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"ann@example.com"}`), 200, `{"ok":true}`)
			var code string
			if err := db.QueryRow(`SELECT reset_password_token FROM up_users WHERE username = 'ann'`).Scan(&code); err != nil || len(code) != 128 {
				t.Fatalf("reset token %q: %v", code, err)
			}
			expect(t, srv.call(t, "", "POST", "/api/auth/reset-password", `{"code":"nope","password":"r3set-pw","passwordConfirmation":"r3set-pw"}`), 400, `"message":"Incorrect code provided"`)
			expect(t, srv.call(t, "", "POST", "/api/auth/reset-password", fmt.Sprintf(`{"code":%q,"password":"r3set-pw","passwordConfirmation":"r3set-pw"}`, code)), 200, `"username":"ann"`)
			expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"ann","password":"r3set-pw"}`), 200)

			// Rate limit: 10 per minute per IP, path and e-mail; the 11th gets 429.
			for i := 1; i <= 11; i++ {
				r = srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"flood@example.com"}`)
				if i <= 10 {
					expect(t, r, 200)
					if r.Header.Get("X-RateLimit-Limit") != "10" || r.Header.Get("X-RateLimit-Remaining") != fmt.Sprint(10-i) || r.Header.Get("X-RateLimit-Reset") == "" {
						t.Fatalf("rate headers %v", r.Header)
					}
				}
			}
			expect(t, r, 429, `{"data":null,"error":{"status":429,"name":"RateLimitError","message":"Too many requests, please try again later.","details":{}}}`)
			// Another e-mail has its own budget.
			expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"other@example.com"}`), 200)
		})
	}
}

// TestProductionNeedsJWTSecret: `quarry serve` refuses to start in production without one.
func TestProductionNeedsJWTSecret(t *testing.T) {
	be := backends()[0]
	app := authApp(t, nil)
	env := append(be.Env(t), "API_TOKEN_SALT=x", "NODE_ENV=production")
	cmd := exec.Command(binary, "serve", "--app", app, "--port", fmt.Sprint(freePort(t)))
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "JWT_SECRET is required in production") {
		t.Fatalf("serve in production without JWT_SECRET: %v\n%s", err, out)
	}
}

// TestEmailConfirmation: with email_confirmation on, a new user gets no JWT and cannot log in
// (nor use a JWT) until the confirmation link is followed.
func TestEmailConfirmation(t *testing.T) {
	be := backends()[0]
	app := authApp(t, map[string]string{"plugins.json": `{"users-permissions": {"config": {"jwtSecret": "` + testJWTSecret + `",
		"advanced": {"email_confirmation": true, "email_confirmation_redirection": "https://app.example/welcome"}}}}`})
	srv := start(t, be, app)
	db := openDB(t, srv)
	r := srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"dee","email":"dee@example.com","password":"dee-password"}`)
	expect(t, r, 200, `{"user":{"id":1,"username":"dee","email":"dee@example.com","provider":"local","confirmed":false,"blocked":false,`)
	refute(t, r, `"jwt"`)
	expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"dee","password":"dee-password"}`), 400,
		`{"data":null,"error":{"status":400,"name":"ApplicationError","message":"Your account email is not confirmed","details":{}}}`)
	now := time.Now().Unix()
	forged := signJWT(testJWTSecret, `{"alg":"HS256","typ":"JWT"}`, fmt.Sprintf(`{"id":1,"iat":%d,"exp":%d}`, now, now+60))
	expect(t, srv.call(t, forged, "GET", "/api/users/me", ""), 401, `"message":"Invalid credentials"`)
	var token string
	if err := db.QueryRow(`SELECT confirmation_token FROM up_users WHERE id = 1`).Scan(&token); err != nil || token == "" {
		t.Fatalf("confirmation token %q %v", token, err)
	}
	expect(t, srv.call(t, "", "GET", "/api/auth/email-confirmation?confirmation=nope", ""), 400, `"message":"Invalid token"`)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(srv.URL + "/api/auth/email-confirmation?confirmation=" + token)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 302 || res.Header.Get("Location") != "https://app.example/welcome" {
		t.Fatalf("confirmation: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"dee","password":"dee-password"}`), 200, `"confirmed":true`)
	expect(t, srv.call(t, forged, "GET", "/api/users/me", ""), 200, `"username":"dee"`)
	expect(t, srv.call(t, "", "POST", "/api/auth/send-email-confirmation", `{"email":"dee@example.com"}`), 400, `"message":"Already confirmed"`)

	// GraphQL's emailConfirmation answers the session instead of redirecting; the user is
	// the one Strapi read before confirming it.
	expect(t, srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"eve","email":"eve@example.com","password":"eve-password"}`), 200)
	if err := db.QueryRow(`SELECT confirmation_token FROM up_users WHERE username = 'eve'`).Scan(&token); err != nil || token == "" {
		t.Fatalf("confirmation token %q %v", token, err)
	}
	gql := func(q string) resp {
		b, _ := json.Marshal(map[string]string{"query": q})
		return srv.call(t, "", "POST", "/graphql", string(b))
	}
	expect(t, gql(`mutation { emailConfirmation(confirmation: "nope") { jwt } }`), 200,
		`{"errors":[{"message":"Invalid token","extensions":{"error":{"name":"ValidationError","message":"Invalid token","details":{}},"code":"BAD_USER_INPUT"}}],"data":{"emailConfirmation":null}}`)
	r = gql(`mutation { emailConfirmation(confirmation: "` + token + `") { jwt user { username email confirmed blocked role { id } } } }`)
	expect(t, r, 200, `"user":{"username":"eve","email":"eve@example.com","confirmed":false,"blocked":false,"role":null}`)
	jwt, _ := jsonField(t, r.Body, "data", "emailConfirmation", "jwt").(string)
	expect(t, srv.call(t, jwt, "GET", "/api/users/me", ""), 200, `"username":"eve"`, `"confirmed":true`)
	expect(t, gql(`mutation { emailConfirmation(confirmation: "`+token+`") { jwt } }`), 200, `"message":"Invalid token"`)
}
