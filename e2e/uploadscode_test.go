package e2e

import (
	"flag"
	"path/filepath"
	"testing"
)

var updateUploadsCode = flag.Bool("update-uploadscode", false, "record testdata/uploads_rest.json from the Strapi at QUARRY_ORACLE_URL")

// uploadsCodeSteps send entries with files as a front-end's FormData does, through the
// uploads project's own code: a custom action reporting ctx.request.body and
// ctx.request.files, a create override rewriting the JSON data field before
// super.create(ctx), and a route middleware rewriting it before Quarry's own update.
var uploadsCodeSteps = []ownCodeStep{
	{Name: "inspect a JSON body", Method: "POST", Path: "/api/photos/inspect", Body: `{"a":1}`},
	{Name: "inspect a form", Method: "POST", Path: "/api/photos/inspect", Form: []formPart{
		{Name: "data", Value: `{"title":"x"}`},
		{Name: "tag", Value: "one"}, {Name: "tag", Value: "two"},
		{Name: "empty", Value: ""}, {Name: "empty", Value: "after"},
		{Name: "files.image", File: "red.png", Type: "image/png"},
		{Name: "files.gallery", File: "red.png", Type: "image/png"},
		{Name: "files.gallery", File: "uploads/note.md", Type: "text/markdown"},
	}},
	{Name: "inspect a form without files", Method: "POST", Path: "/api/photos/inspect", Form: []formPart{{Name: "data", Value: `{}`}}},
	{Name: "create with a file, title rewritten by the override", Method: "POST", Path: "/api/photos", Form: []formPart{
		{Name: "data", Value: `{"title":"sunset","caption":"plain"}`},
		{Name: "files.image", File: "red.png", Type: "image/png"},
	}},
	{Name: "the photo with its image", Path: "/api/photos/1?populate[image][fields][0]=name&populate[image][fields][1]=mime&populate[gallery][fields][0]=name"},
	{Name: "update with files, caption stamped by the middleware", Method: "PUT", Path: "/api/photos/1", Form: []formPart{
		{Name: "data", Value: `{"title":"sunset again"}`},
		{Name: "files.gallery", File: "uploads/note.md", Type: "text/markdown"},
	}},
	{Name: "the photo with its gallery", Path: "/api/photos/1?populate[image][fields][0]=name&populate[gallery][fields][0]=name&populate[gallery][fields][1]=mime"},
	{Name: "create from a form without data", Method: "POST", Path: "/api/photos", Form: []formPart{
		{Name: "files.image", File: "red.png", Type: "image/png"},
	}, Instead: strapi500(`{"data":null,"error":{"status":400,"name":"BadRequestError","message":"When using multipart/form-data you need to provide your data in a JSON 'data' field.","details":{}}}`)},
	{Name: "update through the middleware with invalid data", Method: "PUT", Path: "/api/photos/1", Form: []formPart{
		{Name: "data", Value: `not json`},
	}, Instead: strapi500(`{"data":null,"error":{"status":400,"name":"BadRequestError","message":"Invalid 'data' field. 'data' should be a valid JSON.","details":{}}}`)},
	{Name: "update with JSON through the middleware", Method: "PUT", Path: "/api/photos/1", Body: `{"data":{"caption":"json"}}`},
	{Name: "photos", Path: "/api/photos?fields[0]=title&fields[1]=caption&sort=id"},
	{Name: "attach files through the upload service", Method: "POST", Path: "/api/photos/1/attach", Form: []formPart{
		{Name: "files", File: "red.png", Type: "image/png"},
	}},
	{Name: "attach without files", Method: "POST", Path: "/api/photos/1/attach", Form: []formPart{{Name: "x", Value: "y"}}},
	{Name: "the photo's gallery after attaching", Path: "/api/photos/1?populate[gallery][fields][0]=name&populate[gallery][fields][1]=caption"},
}

// TestUploadsCode replays the uploads project (testdata/projects/uploads) on every database
// against the answers Strapi 4.26.2 gave (-update-uploadscode with QUARRY_ORACLE_URL).
func TestUploadsCode(t *testing.T) {
	replayProject(t, "uploads", uploadsCodeSteps, *updateUploadsCode, "-update-uploadscode")
}

// TestAllowHeader: a method a path is not routed for answers koa-router's 405 (OPTIONS its
// 200), whose Allow header names HEAD and GET (Strapi's public middleware routes GET of
// every path) and then the methods of the routes matching the path, in the order they were
// registered: the answers of Strapi 4.26.2 for the uploads project, seen with the oracle.
func TestAllowHeader(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "uploads"))
	srv := start(t, backends()[0], app)
	for _, tc := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{"PATCH", "/api/photos", 405, "HEAD, GET, POST"},
		{"DELETE", "/api/photos", 405, "HEAD, GET, POST"},
		{"OPTIONS", "/api/photos", 200, "HEAD, GET, POST"},
		{"PATCH", "/api/photos/1", 405, "HEAD, GET, PUT, DELETE"},
		{"POST", "/api/photos/1", 405, "HEAD, GET, PUT, DELETE"},
		{"OPTIONS", "/api/photos/1", 200, "HEAD, GET, PUT, DELETE"},
		// The custom POST route (01-custom.js, registered first) and the core /:id routes.
		{"PATCH", "/api/photos/inspect", 405, "HEAD, GET, POST, PUT, DELETE"},
		{"OPTIONS", "/api/photos/inspect", 200, "HEAD, GET, POST, PUT, DELETE"},
		{"PATCH", "/api/nothing", 405, "HEAD, GET"},
		{"PATCH", "/api/photos/1/x", 405, "HEAD, GET"},
		{"PATCH", "/api/upload", 405, "HEAD, GET, POST"},
		{"PATCH", "/api/users", 405, "HEAD, GET, POST"},
		{"PATCH", "/graphql", 405, "GET, POST"},
	} {
		st, _, h := srv.send(t, srv.Token, tc.method, tc.path, "", nil)
		if st != tc.status || h.Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d Allow %q, want %d %q", tc.method, tc.path, st, h.Get("Allow"), tc.status, tc.allow)
		}
	}
}

// strapi500 is Quarry's 400 (body) where Strapi crashes on the input.
func strapi500(body string) *instead {
	return &instead{Status: 400, Body: body, Strapi: 500, Why: "Strapi crashes on this input"}
}
