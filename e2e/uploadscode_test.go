package e2e

import (
	"flag"
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
	}, Strapi500: `{"data":null,"error":{"status":400,"name":"BadRequestError","message":"When using multipart/form-data you need to provide your data in a JSON 'data' field.","details":{}}}`},
	{Name: "update through the middleware with invalid data", Method: "PUT", Path: "/api/photos/1", Form: []formPart{
		{Name: "data", Value: `not json`},
	}, Strapi500: `{"data":null,"error":{"status":400,"name":"BadRequestError","message":"Invalid 'data' field. 'data' should be a valid JSON.","details":{}}}`},
	{Name: "update with JSON through the middleware", Method: "PUT", Path: "/api/photos/1", Body: `{"data":{"caption":"json"}}`},
	{Name: "photos", Path: "/api/photos?fields[0]=title&fields[1]=caption&sort=id"},
}

// TestUploadsCode replays the uploads project (testdata/projects/uploads) on every database
// against the answers Strapi 4.26.2 gave (-update-uploadscode with QUARRY_ORACLE_URL).
func TestUploadsCode(t *testing.T) {
	replayProject(t, "uploads", uploadsCodeSteps, *updateUploadsCode, "-update-uploadscode")
}
