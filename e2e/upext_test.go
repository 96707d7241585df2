package e2e

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateUpExt = flag.Bool("update-upext", false, "record testdata/upext_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/upext and ORACLE_GRANTS=testdata/projects/upext/config/permissions.json)")

// upExtSteps use what the upext project's users-permissions extension adds (and its
// register()'s fetchAuthenticatedUser, which lets no "suspended-" user in): an action of
// its own on the user controller with its route, account actions spread into the controller
// (a password change checked with validatePassword), a method the extension adds to the
// user service through a factory of its own, and one it assigns on the factory (which
// Strapi ignores). Two users each try the other's account too.
var upExtSteps = []ownCodeStep{
	{Name: "register ann", Method: "POST", Path: "/api/auth/local/register", Body: `{"username":"ann","email":"ann@example.com","password":"Secret123"}`, As: "public", Register: "ann"},
	{Name: "register bob", Method: "POST", Path: "/api/auth/local/register", Body: `{"username":"bob","email":"bob@example.com","password":"Secret123"}`, As: "public", Register: "bob"},
	{Name: "ann reads herself", Path: "/api/users/me", As: "ann"},
	{Name: "ann renames herself", Method: "PUT", Path: "/api/user/me", Body: `{"username":"annie","email":"x@example.com"}`, As: "ann"},
	{Name: "bob renames himself without a name", Method: "PUT", Path: "/api/user/me", Body: `{"email":"bob2@example.com"}`, As: "bob"},
	{Name: "nobody renames", Method: "PUT", Path: "/api/user/me", Body: `{"username":"ghost"}`, As: "public"},
	{Name: "ann reads herself again", Path: "/api/users/me", As: "ann"},
	{Name: "bob reads ann", Path: "/api/users/1", As: "bob"},
	{Name: "bob renames ann through the plugin's route", Method: "PUT", Path: "/api/users/1", Body: `{"username":"hacked"}`, As: "bob"},
	{Name: "ann changes her password, wrong current", Method: "POST", Path: "/api/user/me/password", Body: `{"currentPassword":"nope","password":"NewSecret1"}`, As: "ann"},
	{Name: "ann changes her password, nothing sent", Method: "POST", Path: "/api/user/me/password", Body: `{}`, As: "ann"},
	{Name: "ann changes her password", Method: "POST", Path: "/api/user/me/password", Body: `{"currentPassword":"Secret123","password":"NewSecret1"}`, As: "ann"},
	{Name: "ann logs in with the old password", Method: "POST", Path: "/api/auth/local", Body: `{"identifier":"annie","password":"Secret123"}`, As: "public"},
	{Name: "ann logs in with the new password", Method: "POST", Path: "/api/auth/local", Body: `{"identifier":"annie","password":"NewSecret1"}`, As: "public", Register: "ann2"},
	{Name: "bob tries ann's new password on his account", Method: "POST", Path: "/api/user/me/password", Body: `{"currentPassword":"NewSecret1","password":"Taken123"}`, As: "bob"},
	{Name: "nobody changes a password", Method: "POST", Path: "/api/user/me/password", Body: `{"currentPassword":"Secret123","password":"x"}`, As: "public"},
	{Name: "bob logs in, unchanged", Method: "POST", Path: "/api/auth/local", Body: `{"identifier":"bob","password":"Secret123"}`, As: "public"},
	{Name: "ann reads herself raw", Path: "/api/user/me/raw", As: "ann2",
		Instead: &instead{Status: 200, Strapi: 200, Body: `{"id":1,"username":"annie","hasPassword":true}`,
			Why: "Strapi's answer leaks the password hash the query engine read; Quarry's reads hand the code a sealed password, which no answer carries"}},
	{Name: "ann shouts", Path: "/api/user/me/shout", As: "ann2"},
	{Name: "ann reads her role", Path: "/api/user/me/role", As: "ann2"},
	{Name: "ann reads herself sanitized", Path: "/api/user/me/safe", As: "ann2"},
	{Name: "bob reads himself sanitized, with populate asked", Path: "/api/user/me/safe?populate=role", As: "bob"},
	{Name: "bob logs in with a wrong password", Method: "POST", Path: "/api/auth/local", Body: `{"identifier":"bob","password":"nope"}`, As: "public"},
	{Name: "bob reads his role", Path: "/api/user/me/role", As: "bob"},
	{Name: "register a suspended user", Method: "POST", Path: "/api/auth/local/register", Body: `{"username":"suspended-carl","email":"carl@example.com","password":"Secret123"}`, As: "public", Register: "carl"},
	{Name: "the suspended user reads himself", Path: "/api/users/me", As: "carl"},
	{Name: "the suspended user reads his role", Path: "/api/user/me/role", As: "carl"},
	{Name: "the suspended user lists notes", Path: "/api/notes", As: "carl"},
	{Name: "the suspended user renames ann", Method: "PUT", Path: "/api/user/me", Body: `{"username":"annie2"}`, As: "carl"},
	{Name: "bob reads ann, still annie", Path: "/api/users/1", As: "bob"},
	{Name: "nobody reads users", Path: "/api/users", As: "public"},
	{Name: "ann lists notes", Path: "/api/notes", As: "ann2"},
}

// TestUsersPermissionsExtension serves the upext project on Quarry alone, on every
// database, and compares each answer with real Strapi 4.26.2's (recorded with
// -update-upext). Only the GraphQL user mutations, which reach the controller the
// extension replaces, are refused.
func TestUsersPermissionsExtension(t *testing.T) {
	replayProjectChecking(t, "upext", upExtSteps, *updateUpExt, "-update-upext", func(t *testing.T, routes string) {
		for _, l := range strings.Split(routes, "\n") {
			// The user mutations reach the user controller the extension replaces, and the
			// me query answers the user register()'s fetchAuthenticatedUser fetched.
			if strings.Contains(l, " refused ") && !strings.HasPrefix(l, "GRAPHQL  Mutation.") && !strings.HasPrefix(l, "GRAPHQL  Query.me ") {
				t.Errorf("refused: %s", l)
			}
		}
		for _, want := range []string{"PUT      /api/user/me ", "POST     /api/user/me/password ", "POST     /api/auth/local "} {
			if !strings.Contains(routes, want) {
				t.Errorf("routes lack %q:\n%s", want, routes)
			}
		}
	})
}

// TestUsersPermissionsRegisterMethod: a method src/index's register() assigns on the user
// service, which no action of the plugin calls, is there for the project's code to call
// (upext's shoutMe, which otherwise finds none), and the plugin's routes stay Quarry's.
func TestUsersPermissionsRegisterMethod(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "upext"))
	index := filepath.Join(app, "src", "index.js")
	src, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	const at = "  register({ strapi }) {\n"
	if !strings.Contains(string(src), at) {
		t.Fatal("upext's index.js has no register({ strapi })")
	}
	shout := at + "    strapi.plugin('users-permissions').service('user').shout = (text) => `${String(text).toUpperCase()}!`;\n"
	if err := os.WriteFile(index, []byte(strings.Replace(string(src), at, shout, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, backends()[0], app)
	for _, l := range strings.Split(quarry(t, srv.Env, "routes", "--app", app), "\n") {
		if strings.Contains(l, " refused ") && !strings.HasPrefix(l, "GRAPHQL ") {
			t.Errorf("refused: %s", l)
		}
	}
	st, b := srv.doAs(t, "", "POST", "/api/auth/local/register", []byte(`{"username":"dee","email":"dee@example.com","password":"Secret123"}`))
	var reg struct {
		JWT string `json:"jwt"`
	}
	if st != 200 || json.Unmarshal(b, &reg) != nil || reg.JWT == "" {
		t.Fatalf("register: %d %s", st, b)
	}
	if st, b := srv.doAs(t, reg.JWT, "GET", "/api/user/me/shout", nil); st != 200 || string(b) != `{"name":"DEE!"}` {
		t.Errorf("GET /api/user/me/shout: %d %s", st, b)
	}
}
