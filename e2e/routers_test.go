package e2e

import (
	"flag"
	"strings"
	"testing"
)

var updateRouters = flag.Bool("update-routers", false, "record testdata/routers_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/routers and ORACLE_GRANTS=testdata/projects/routers/config/permissions.json)")

// routersSteps use the routers project's route files: releases' router of its own over the
// core router (the core routes first, so /releases/latest is the core findOne's), the
// banner's `{ routes }` spreading its core routes after a route of its own, and the routes
// the users-permissions extension puts first among the plugin's.
var routersSteps = []ownCodeStep{
	{Name: "a release", Method: "POST", Path: "/api/releases", Body: `{"data":{"version":"1.0.0","notes":"First cut\n  Sign-in works\n"}}`},
	{Name: "another release", Method: "POST", Path: "/api/releases", Body: `{"data":{"version":"1.1.0","notes":"Faster lists"}}`},
	{Name: "the list is open to everyone", Path: "/api/releases?sort=id&fields[0]=version", As: "public"},
	{Name: "one release is not", Path: "/api/releases/1", As: "public"},
	{Name: "a release's notes, open to everyone", Path: "/api/releases/1/notes", As: "public"},
	{Name: "the notes of no release", Path: "/api/releases/99/notes", As: "public"},
	{Name: "the latest route comes after the core findOne", Path: "/api/releases/latest", As: "public"},
	{Name: "a release updated", Method: "PUT", Path: "/api/releases/2", Body: `{"data":{"notes":"Faster lists\nFewer queries"}}`},
	{Name: "a release deleted", Method: "DELETE", Path: "/api/releases/1"},
	{Name: "the list after", Path: "/api/releases?sort=id&fields[0]=version&fields[1]=notes", As: "public"},
	{Name: "a release's notes after", Path: "/api/releases/2/notes", As: "public"},
	{Name: "no banner yet", Path: "/api/banner", As: "public"},
	{Name: "no banner text yet", Path: "/api/banner/text", As: "public"},
	{Name: "the banner set", Method: "PUT", Path: "/api/banner", Body: `{"data":{"headline":"Spring sale","tone":"loud"}}`},
	{Name: "the banner, open to everyone", Path: "/api/banner", As: "public"},
	{Name: "the banner's text", Path: "/api/banner/text", As: "public"},
	{Name: "the banner cannot be deleted", Method: "DELETE", Path: "/api/banner"},
	{Name: "the banner cannot be created", Method: "POST", Path: "/api/banner", Body: `{"data":{}}`},
	{Name: "register ann", Method: "POST", Path: "/api/auth/local/register", Body: `{"username":"ann","email":"ann@example.com","password":"Secret123"}`, As: "public", Register: "ann"},
	{Name: "ann's session", Path: "/api/auth/session", As: "ann"},
	{Name: "ann signs out", Method: "POST", Path: "/api/auth/logout", Body: `{}`, As: "ann"},
	{Name: "ann reads herself", Path: "/api/users/me", As: "ann"},
	{Name: "ann counts users", Path: "/api/users/count", As: "ann"},
	{Name: "ann reads a release", Path: "/api/releases/2?fields[0]=version", As: "ann"},
	{Name: "nobody signs out", Method: "POST", Path: "/api/auth/logout", Body: `{}`, As: "public"},
	{Name: "nobody's session", Path: "/api/auth/session", As: "public"},
	{Name: "nobody reads himself", Path: "/api/users/me", As: "public"},
	{Name: "ann signs in", Method: "POST", Path: "/api/auth/local", Body: `{"identifier":"ann","password":"Secret123"}`, As: "public"},
}

// TestRouters serves the routers project on Quarry alone, on every database, against the
// answers Strapi 4.26.2 gave (-update-routers): every route of its route files is served
// (core and extra), and the extension's routes are listed once each, beside the plugin's
// own, unshifted.
func TestRouters(t *testing.T) {
	replayProjectChecking(t, "routers", routersSteps, *updateRouters, "-update-routers", func(t *testing.T, routes string) {
		if strings.Contains(routes, " refused ") || strings.Contains(routes, "could not read") {
			t.Fatalf("routes refused:\n%s", routes)
		}
		listed := map[string]int{}
		for _, l := range strings.Split(routes, "\n") {
			if f := strings.Fields(l); len(f) > 2 {
				listed[f[0]+" "+f[1]]++
			}
		}
		for _, want := range []string{"POST /api/auth/logout", "GET /api/auth/session", "GET /api/users/me", "GET /api/users/count",
			"GET /api/releases/:id/notes", "GET /api/releases/latest", "GET /api/releases/:id", "GET /api/banner/text", "PUT /api/banner"} {
			if listed[want] != 1 {
				t.Errorf("%s listed %d times:\n%s", want, listed[want], routes)
			}
		}
		if listed["DELETE /api/banner"] != 0 {
			t.Errorf("DELETE /api/banner listed:\n%s", routes)
		}
	})
}
