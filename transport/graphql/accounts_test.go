package graphql_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/gqlschema"
	gql "github.com/quarrycms/quarry/transport/graphql"
	"github.com/quarrycms/quarry/transport/graphql/execute"
	"github.com/quarrycms/quarry/transport/plugins/userspermissions"
)

// TestAccounts runs the users-permissions resolvers through the real auth service.
func TestAccounts(t *testing.T) {
	e := newEnv(t, gqlschema.DefaultConfig())
	ctx := context.Background()
	if err := userspermissions.EnsureRoles(ctx, e.db, time.Now()); err != nil {
		t.Fatal(err)
	}
	cfg := userspermissions.DefaultConfig()
	cfg.JWTSecret = "test-secret"
	svc := userspermissions.NewService(e.db, e.schema, cfg, "salt", nil)
	h, err := gql.New(gql.Options{Options: execute.Options{Schema: e.schema, Config: gqlschema.DefaultConfig(), Planner: e.planner, Runner: e.runner, DB: e.db,
		Plugins: []execute.Plugin{svc.GraphQL()}}, Authenticate: func(r *http.Request) (*ir.Caller, error) {
		return svc.Authenticate(r.Context(), r.Header.Get("Authorization"))
	}})
	if err != nil {
		t.Fatal(err)
	}
	e.h = h
	public := &ir.Caller{Kind: ir.PublicCaller}

	body := string(e.exec(public, `mutation { register(input: {username: "ann", email: "Ann@Example.com", password: "secret123"}) { jwt user { id username email confirmed blocked role { name } } } }`, nil).Body)
	var reg struct {
		Data struct {
			Register struct {
				JWT  string
				User map[string]any
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &reg); err != nil || reg.Data.Register.JWT == "" {
		t.Fatalf("register: %s", body)
	}
	expect(t, "registered user", compactJSON(reg.Data.Register.User), `{"blocked":false,"confirmed":true,"email":"ann@example.com","id":"1","role":{"name":"Authenticated"},"username":"ann"}`)

	body = string(e.exec(public, `mutation { login(input: {identifier: "ann", password: "nope-nope"}) { jwt } }`, nil).Body)
	expect(t, "bad login", body, `{"errors":[{"message":"Invalid identifier or password","extensions":{"error":{"name":"ValidationError","message":"Invalid identifier or password","details":{}},"code":"BAD_USER_INPUT"}}],"data":null}`)
	body = string(e.exec(public, `mutation { login(input: {identifier: "ann@example.com", password: "secret123"}) { jwt user { username } } }`, nil).Body)
	if !strings.Contains(body, `"user":{"username":"ann"}`) || !strings.Contains(body, `"jwt":"ey`) {
		t.Fatalf("login: %s", body)
	}

	// me, through HTTP with the JWT: the authenticated role may call it.
	rec := e.http("POST", "/graphql", reg.Data.Register.JWT, []byte(`{"query":"{ me { id username role { name type } } }"}`), nil)
	expect(t, "me", rec.Body.String(), `{"data":{"me":{"id":"1","username":"ann","role":{"name":"Authenticated","type":"authenticated"}}}}`+"\n")
	rec = e.http("POST", "/graphql", "", []byte(`{"query":"{ me { id } }"}`), nil)
	if !strings.Contains(rec.Body.String(), `"code":"FORBIDDEN"`) {
		t.Errorf("me as the public role: %s", rec.Body)
	}
	expect(t, "me as an API token", e.q(`{ me { id } }`),
		`{"errors":[{"message":"Authentication requested","locations":[{"line":1,"column":3}],"path":["me"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}}],"data":{"me":null}}`)
	expect(t, "forgot password", string(e.exec(public, `mutation { forgotPassword(email: "nobody@example.com") { ok } }`, nil).Body),
		`{"data":{"forgotPassword":{"ok":true}}}`)

	// User administration reads the user back through the planner: private fields cannot leak.
	body = e.q(`mutation { createUsersPermissionsUser(data: {username: "bob", email: "bob@example.com", password: "secret123", confirmed: true, role: 1}) { data { id attributes { username email confirmed provider } } } }`)
	expect(t, "create user", body, `{"data":{"createUsersPermissionsUser":{"data":{"id":"2","attributes":{"username":"bob","email":"bob@example.com","confirmed":true,"provider":"local"}}}}}`)
	expect(t, "list users", e.q(`{ usersPermissionsUsers(sort: "id") { data { id attributes { username role { data { attributes { type } } } } } } }`),
		`{"data":{"usersPermissionsUsers":{"data":[{"id":"1","attributes":{"username":"ann","role":{"data":{"attributes":{"type":"authenticated"}}}}},{"id":"2","attributes":{"username":"bob","role":{"data":{"attributes":{"type":"authenticated"}}}}}]}}}`)
	expect(t, "delete user", e.q(`mutation { deleteUsersPermissionsUser(id: 2) { data { id attributes { username } } } }`),
		`{"data":{"deleteUsersPermissionsUser":{"data":{"id":"2","attributes":{"username":"bob"}}}}}`)
	expect(t, "create role", e.q(`mutation { createUsersPermissionsRole(data: {name: "Editors", description: "e"}) { ok } }`),
		`{"data":{"createUsersPermissionsRole":{"ok":true}}}`)
	if body := e.q(`{ usersPermissionsRoles { data { attributes { name } } } }`); !strings.Contains(body, `"Editors"`) {
		t.Errorf("roles: %s", body)
	}
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
