package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestBoundedLists: lists a client sends into filters are bounded before SQL, on REST and
// GraphQL, on every database: qs's own limits keep a REST list answerable, a longer GraphQL
// variable is a 400 naming the parameter, never a database error.
func TestBoundedLists(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			s := startGraphQL(t, be)
			s.gql(t, `mutation { createArticle(data: {title: "a_b%c", publishedAt: "2024-01-01T00:00:00.000Z"}) { data { id } } }`, nil)

			// REST: as many values as qs keeps as a list is answered, more is a clear 400.
			for _, n := range []int{100, 101, 1000} {
				q := url.Values{}
				for i := 1; i <= n; i++ {
					q.Add("filters[id][$in]", fmt.Sprint(i))
				}
				status, body := s.do(t, http.MethodGet, "/api/articles?"+q.Encode(), nil)
				switch {
				case n <= 100 && (status != 200 || !strings.Contains(string(body), `"id":1`)):
					t.Errorf("REST $in of %d: %d %.300s", n, status, body)
				case n > 100 && (status != 400 || !strings.Contains(string(body), `"ValidationError"`)):
					t.Errorf("REST $in of %d: %d %.300s", n, status, body)
				}
				q = url.Values{}
				for i := 1; i <= n; i++ {
					q.Add("filters[$or]["+fmt.Sprint(i)+"][id][$notIn]", fmt.Sprint(i))
				}
				if status, body := s.do(t, http.MethodGet, "/api/articles?"+q.Encode(), nil); status != 200 && status != 400 {
					t.Errorf("REST $or of %d $notIn: %d %.300s", n, status, body)
				}
			}

			// GraphQL: a variable of any length.
			ids := make([]any, 10000)
			for i := range ids {
				ids[i] = fmt.Sprint(i + 1)
			}
			for _, c := range []struct{ query, param string }{
				{`query($ids: [ID]) { articles(filters: {id: {in: $ids}}) { data { id } } }`, "id"},
				{`query($ids: [ID]) { articles(filters: {id: {notIn: $ids}}) { data { id } } }`, "id"},
				{`query($ids: [String]) { articles(filters: {title: {in: $ids}}) { data { id } } }`, "title"},
			} {
				status, body := s.gqlCall(t, s.Token, c.query, map[string]any{"ids": ids})
				if status >= 500 || !strings.Contains(body, "Invalid parameter "+c.param) || strings.Contains(body, "INTERNAL_SERVER_ERROR") {
					t.Errorf("GraphQL in of 10000 (%s): %d %.400s", c.param, status, body)
				}
			}
			body2 := s.gql(t, `query($ids: [ID]) { articles(filters: {id: {in: $ids}}) { data { id } } }`, map[string]any{"ids": ids[:2000]})
			wantJSON(t, "in of 2000", body2, `{"data":{"articles":{"data":[{"id":"1"}]}}}`)
		})
	}
}

// TestLikePatterns: a pattern operand is passed to LIKE as Strapi passes it (% and _ are
// wildcards; a backslash is the escape character of PostgreSQL's and MySQL's LIKE, "*"
// below: the database's answer), and a trailing backslash, which PostgreSQL refuses, is
// matched literally instead of failing the statement.
func TestLikePatterns(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			s := start(t, be, "../examples/blog")
			for _, title := range []string{`back\`, `a_b%c`, `axbyc`, `plain`} {
				body, _ := json.Marshal(map[string]any{"data": map[string]any{"title": title, "publishedAt": "2024-01-01T00:00:00.000Z"}})
				if status, out := s.do(t, http.MethodPost, "/api/articles", body); status != 200 {
					t.Fatalf("create %q: %d %s", title, status, out)
				}
			}
			for _, c := range []struct{ filter, want string }{
				{"filters[title][$endsWith]=%5C", `back\`},
				{"filters[title][$eqi]=BACK%5C", `back\`},
				{"filters[title][$nei]=BACK%5C", `a_b%c,axbyc,plain`},
				{"filters[title][$endsWith]=k%5C%5C", `*`},
				{"filters[title][$endsWith]=%5C%5C%5C", ``},
				{"filters[title][$startsWith]=back%5C", `*`},
				{"filters[title][$contains]=%5C", `*`},
				{"filters[title][$containsi]=%5C%5C", `*`},
				{"filters[title][$notContainsi]=%5C", `*`},
				{"filters[title][$eqi]=%5C", ``},
				{"filters[title][$startsWith]=a_b", `a_b%c,axbyc`},
				{"filters[title][$contains]=b%25c", `back\,a_b%c,axbyc`},
				{"filters[title][$eqi]=A_B%25C", `a_b%c,axbyc`},
				{"filters[title][$endsWith]=_", `back\,a_b%c,axbyc,plain`},
			} {
				status, out := s.do(t, http.MethodGet, "/api/articles?sort=id&fields[0]=title&"+c.filter, nil)
				if status != 200 {
					t.Errorf("%s: %d %s", c.filter, status, out)
					continue
				}
				var r struct {
					Data []struct {
						Attributes struct{ Title string } `json:"attributes"`
					} `json:"data"`
				}
				json.Unmarshal(out, &r)
				var got []string
				for _, d := range r.Data {
					got = append(got, d.Attributes.Title)
				}
				if c.want != "*" && strings.Join(got, ",") != c.want {
					t.Errorf("%s: got %q, want %q", c.filter, strings.Join(got, ","), c.want)
				}
			}
		})
	}
}

// TestDeclaredLengthOverLimit: a Content-Length over the body limit is answered 413 at
// once, with Strapi's envelope, without waiting for a body that never comes.
func TestDeclaredLengthOverLimit(t *testing.T) {
	s := startGraphQL(t, backends()[0])
	host := strings.TrimPrefix(s.URL, "http://")
	for _, path := range []string{"/api/tags", "/graphql", "/api/auth/local"} {
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{\"a\":1}", path, host, s.Token)
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("%s: no answer: %v", path, err)
			conn.Close()
			continue
		}
		body, _ := io.ReadAll(res.Body)
		conn.Close()
		if res.StatusCode != 413 || !strings.Contains(string(body), `"name":"PayloadTooLargeError","message":"request entity too large"`) {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}
	// A multipart upload declaring more than its files, fields and part headers may hold.
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/upload HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 99999999999\r\n\r\n--x\r\n", host, s.Token)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("multipart: no answer: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 413 || !strings.Contains(string(body), `"PayloadTooLargeError"`) {
		t.Errorf("multipart: %d %s", res.StatusCode, body)
	}
}

// TestAuthRateLimitAcrossGraphQL: logins through REST and GraphQL share one budget per
// client, and each login of a JSON batch counts.
func TestAuthRateLimitAcrossGraphQL(t *testing.T) {
	app := authApp(t, map[string]string{"permissions.json": authPermissions, "plugins.json": authPlugins})
	env := append(backends()[0].Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn")
	srv := serve(t, env, app, "")
	login := `mutation { login(input: {identifier: "nobody", password: "wrong-pw"}) { jwt } }`
	for i := 0; i < 5; i++ {
		if r := srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"nobody","password":"wrong-pw"}`); r.Status != 400 {
			t.Fatalf("REST login %d: %d %s", i, r.Status, r.Body)
		}
	}
	// A batch of 15: the 5 left of the budget are checked, the other 10 refused.
	batch := make([]map[string]any, 15)
	for i := range batch {
		batch[i] = map[string]any{"query": login}
	}
	raw, _ := json.Marshal(batch)
	r := srv.call(t, "", "POST", "/graphql", string(raw))
	if n := strings.Count(string(r.Body), `{"errors":[{"message":"Too many requests`); n != 10 {
		t.Errorf("batch of 15 after 5 REST logins: %d refused, want 10: %d %.600s", n, r.Status, r.Body)
	}
	// Now REST is refused too, and so is a single GraphQL login.
	if r := srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"nobody","password":"wrong-pw"}`); r.Status != 429 {
		t.Errorf("REST after the batch: %d %s", r.Status, r.Body)
	}
	body, _ := json.Marshal(map[string]any{"query": login})
	if r := srv.call(t, "", "POST", "/graphql", string(body)); !strings.Contains(string(r.Body), "Too many requests") {
		t.Errorf("GraphQL login after the batch: %d %s", r.Status, r.Body)
	}
}

// TestRequestTimeout: the database work of a read and of a GraphQL request runs under the
// request's deadline (QUARRY_REQUEST_TIMEOUT); past it the answer is a 503, not a core kept
// busy. A deadline of 1ns makes every read pass it.
func TestRequestTimeout(t *testing.T) {
	be := backends()[0]
	env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn")
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", "../examples/blog", "--name", "e2e", "--type", "full-access"))
	s := serve(t, append(env, "QUARRY_REQUEST_TIMEOUT=1ns"), "../examples/blog", token)
	if status, body := s.do(t, http.MethodGet, "/api/articles", nil); status != 503 {
		t.Errorf("REST read: %d %s", status, body)
	}
	if status, body := s.gqlCall(t, s.Token, "{ articles { data { id } } }", nil); status != 503 {
		t.Errorf("GraphQL: %d %s", status, body)
	}
	// Writes too, the plugins' included: nothing is stored.
	if status, body := s.do(t, http.MethodPost, "/api/tags", []byte(`{"data":{"name":"late"}}`)); status != 503 {
		t.Errorf("REST write: %d %s", status, body)
	}
	if status, body := s.doAs(t, "", http.MethodPost, "/api/auth/local/register", []byte(`{"username":"late","email":"late@example.com","password":"Secret123"}`)); status != 503 {
		t.Errorf("register: %d %s", status, body)
	}
	stopServer(s)
	s = serve(t, env, "../examples/blog", token)
	if status, body := s.do(t, http.MethodGet, "/api/tags", nil); status != 200 || strings.Contains(string(body), "late") {
		t.Errorf("after the refused writes: %d %s", status, body)
	}
	if status, body := s.do(t, http.MethodGet, "/api/users?filters[username][$eq]=late", nil); status != 200 || strings.Contains(string(body), "late") {
		t.Errorf("after the refused register: %d %s", status, body)
	}
}
