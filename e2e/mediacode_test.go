package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

var updateMediaCode = flag.Bool("update-mediacode", false, "record testdata/mediacode_rest.json from the Strapi at QUARRY_ORACLE_URL")

// mediaCodeSteps manage a shop's media through the upload plugin's service, from the
// mediacode project's own code: files uploaded by a custom route, listed, paged, read,
// renamed and edited, then removed by a product's afterDelete lifecycle, a banner's
// beforeDelete lifecycle and custom routes; the stored files are fetched before and after.
var mediaCodeSteps = []ownCodeStep{
	{Name: "a product", Method: "POST", Path: "/api/products", Body: `{"data":{"name":"Mug"}}`},
	{Name: "its cover, uploaded through the upload service", Method: "POST", Path: "/api/media", Form: []formPart{
		{Name: "ref", Value: "api::product.product"}, {Name: "refId", Value: "1"}, {Name: "field", Value: "cover"},
		{Name: "files", File: "mediacode/cover.png", Type: "image/png"},
	}, Keep: map[string]string{"mugCover": "0.url", "mugThumb": "0.thumbnail"}},
	{Name: "its manual", Method: "POST", Path: "/api/media", Form: []formPart{
		{Name: "ref", Value: "api::product.product"}, {Name: "refId", Value: "1"}, {Name: "field", Value: "manuals"},
		{Name: "caption", Value: "How to use it"},
		{Name: "files", File: "mediacode/manual.txt", Type: "text/plain"},
	}, Keep: map[string]string{"mugManual": "0.url"}},
	{Name: "another product", Method: "POST", Path: "/api/products", Body: `{"data":{"name":"Plate"}}`},
	{Name: "its cover", Method: "POST", Path: "/api/media", Form: []formPart{
		{Name: "ref", Value: "api::product.product"}, {Name: "refId", Value: "2"}, {Name: "field", Value: "cover"},
		{Name: "files", File: "mediacode/cover.png", Type: "image/png"},
	}, Keep: map[string]string{"plateCover": "0.url"}},
	{Name: "a loose file", Method: "POST", Path: "/api/media", Form: []formPart{
		{Name: "files", File: "mediacode/manual.txt", Type: "text/plain"},
	}, Keep: map[string]string{"loose1": "0.url"}},
	{Name: "another loose file", Method: "POST", Path: "/api/media", Form: []formPart{
		{Name: "files", File: "mediacode/manual.txt", Type: "text/plain"},
	}, Keep: map[string]string{"loose2": "0.url"}},
	{Name: "a banner", Method: "POST", Path: "/api/banners", Body: `{"data":{"title":"Sale"}}`},
	{Name: "its image", Method: "POST", Path: "/api/media", Form: []formPart{
		{Name: "ref", Value: "api::banner.banner"}, {Name: "refId", Value: "1"}, {Name: "field", Value: "image"},
		{Name: "files", File: "mediacode/manual.txt", Type: "text/plain"},
	}, Keep: map[string]string{"bannerImage": "0.url"}},
	{Name: "a file through the plugin's route (in the API Uploads folder)", Method: "POST", Path: "/api/upload", Form: []formPart{
		{Name: "files", File: "mediacode/manual.txt", Type: "text/plain"},
	}},
	{Name: "every file", Path: "/api/media"},
	{Name: "the images", Path: "/api/media?filters[mime][$startsWith]=image/"},
	{Name: "a page of files", Path: "/api/media/page?page=2&pageSize=2"},
	{Name: "a file", Path: "/api/media/1"},
	{Name: "a missing file", Path: "/api/media/99"},
	{Name: "a file through the entity service and the query engine", Path: "/api/media/2/raw"},
	{Name: "a file's related entries", Path: "/api/media/1/related", Instead: &instead{Status: 501, Strapi: 200,
		Body: `{"data":null,"error":{"status":501,"name":"NotImplementedError","message":"populate of plugin::upload.file's related entries in the project's code is not provided by Quarry","details":{}}}`,
		Why:  "the project's code reads no morph relation"}},
	{Name: "a product with its cover's entries", Path: "/api/media/products/1", Instead: &instead{Status: 501, Strapi: 200,
		Body: `{"data":null,"error":{"status":501,"name":"NotImplementedError","message":"populate of plugin::upload.file's related entries in the project's code is not provided by Quarry","details":{}}}`,
		Why:  "the project's code reads no morph relation"}},
	{Name: "the upload settings", Path: "/api/media/settings", Instead: &instead{Status: 501, Strapi: 200,
		Body: `{"data":null,"error":{"status":501,"name":"NotImplementedError","message":"strapi.plugin('upload').service('upload').getSettings is not provided by Quarry","details":{}}}`,
		Why:  "the upload service's settings are not provided"}},
	{Name: "rename the cover", Method: "PUT", Path: "/api/media/1/rename", Body: `{"name":"mug-cover.png","alternativeText":"A blue mug"}`},
	{Name: "caption it, null keeps the name", Method: "PUT", Path: "/api/media/1/rename", Body: `{"name":null,"caption":"Front"}`},
	{Name: "rename a missing file", Method: "PUT", Path: "/api/media/99/rename", Body: `{"name":"x"}`},
	{Name: "rename with a number", Method: "PUT", Path: "/api/media/1/rename", Body: `{"name":5}`},
	{Name: "move the manual to the root folder", Method: "PUT", Path: "/api/media/2/rename", Body: `{"folder":null}`},
	{Name: "move it to a missing folder", Method: "PUT", Path: "/api/media/2/rename", Body: `{"folder":99}`, Instead: &instead{Status: 400, Strapi: 500,
		Body: `{"data":null,"error":{"status":400,"name":"ValidationError","message":"updateFileInfo: there is no folder 99","details":{}}}`,
		Why:  "Strapi crashes on a folder that does not exist"}},
	{Name: "move it back to the API Uploads folder", Method: "PUT", Path: "/api/media/2/rename", Body: `{"folder":1}`},
	{Name: "edit the manual", Method: "PUT", Path: "/api/media/2", Body: `{"caption":"Edited","alternativeText":"Manual"}`},
	{Name: "edit a missing file", Method: "PUT", Path: "/api/media/99", Body: `{"caption":"x"}`},
	{Name: "the product's media", Path: "/api/products/1?populate[cover][fields][0]=name&populate[cover][fields][1]=caption&populate[cover][fields][2]=alternativeText&populate[manuals][fields][0]=caption&populate[manuals][fields][1]=alternativeText"},
	{Name: "its cover is stored", Method: "HEAD", Path: "{mugCover}"},
	{Name: "its cover's thumbnail is stored", Method: "HEAD", Path: "{mugThumb}"},
	{Name: "its manual is stored", Path: "{mugManual}"},
	{Name: "delete the product", Method: "DELETE", Path: "/api/products/1"},
	{Name: "its cover is gone", Method: "HEAD", Path: "{mugCover}"},
	{Name: "its cover's thumbnail is gone", Method: "HEAD", Path: "{mugThumb}"},
	{Name: "its manual is gone", Path: "{mugManual}"},
	{Name: "the files left", Path: "/api/media"},
	{Name: "delete the banner", Method: "DELETE", Path: "/api/banners/1"},
	{Name: "its image is gone", Path: "{bannerImage}"},
	{Name: "remove the other cover", Method: "DELETE", Path: "/api/media/3"},
	{Name: "remove it again", Method: "DELETE", Path: "/api/media/3"},
	{Name: "the other cover is gone", Method: "HEAD", Path: "{plateCover}"},
	{Name: "the other product has no cover", Path: "/api/products/2?populate[cover][fields][0]=name"},
	{Name: "remove a file by its id alone", Method: "DELETE", Path: "/api/media/4/legacy"},
	{Name: "remove it again by its id", Method: "DELETE", Path: "/api/media/4/legacy"},
	{Name: "a file removed by id is still stored", Path: "{loose1}"},
	{Name: "drop a row through the query engine", Method: "POST", Path: "/api/media/5/drop"},
	{Name: "a dropped row's file is still stored", Path: "{loose2}"},
	{Name: "delete a stored file through the provider", Method: "POST", Path: "/api/media/7/purge", Instead: &instead{Status: 501, Strapi: 200,
		Body: `{"data":null,"error":{"status":501,"name":"NotImplementedError","message":"strapi.plugin('upload').provider is not provided by Quarry","details":{}}}`,
		Why:  "the provider is Quarry's own"}},
	{Name: "the plugin route's file is left", Path: "/api/media"},
	{Name: "the upload plugin's list agrees", Path: "/api/upload/files"},
}

// TestMediaCode replays the mediacode project (testdata/projects/mediacode) on every
// database against the answers Strapi 4.26.2 gave (-update-mediacode with QUARRY_ORACLE_URL,
// Strapi started with ORACLE_GRANTS=config/permissions.json).
func TestMediaCode(t *testing.T) {
	replayProject(t, "mediacode", mediaCodeSteps, *updateMediaCode, "-update-mediacode")
}

// TestMediaCodeWebhooks: the upload service's writes from the project's code send the
// webhooks Strapi's service sends: entry.update (the entity service's) and media.update for
// an update, media.delete alone for a removal (the query engine's delete sends none), with
// the deleted entry's entry.delete when a lifecycle removes its files; an update or
// removal of a missing file sends its media event with "media": null, as Strapi's does;
// the query engine's own delete sends none. (Seen with the oracle and a webhook.)
func TestMediaCodeWebhooks(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "mediacode"))
	srv := start(t, backends()[0], app)
	rc := newReceiver(t, 0)
	addWebhook(t, srv, rc.URL, allEvents...)
	time.Sleep(1100 * time.Millisecond) // webhooks are read at most once a second
	c := &ownCodeClient{srv: srv, jwts: map[string]string{}}
	byName := map[string]ownCodeStep{}
	for _, st := range mediaCodeSteps {
		byName[st.Name] = st
	}
	for _, tc := range []struct {
		step   string
		events []string // sorted "event model"
	}{
		{"a product", []string{"entry.create product"}},
		{"its cover, uploaded through the upload service", []string{"media.create "}},
		{"its manual", []string{"media.create "}},
		{"another product", []string{"entry.create product"}},
		{"its cover", []string{"media.create "}},
		{"a loose file", []string{"media.create "}},
		{"another loose file", []string{"media.create "}},
		{"a banner", []string{"entry.create banner"}},
		{"its image", []string{"media.create "}},
		{"a file through the plugin's route (in the API Uploads folder)", []string{"entry.create folder", "media.create "}},
		{"rename the cover", []string{"entry.update file", "media.update "}},
		{"rename a missing file", nil},
		{"edit the manual", []string{"entry.update file", "media.update "}},
		{"edit a missing file", []string{"media.update "}},
		{"delete the product", []string{"entry.delete product", "media.delete ", "media.delete "}},
		{"delete the banner", []string{"entry.delete banner", "media.delete "}},
		{"remove the other cover", []string{"media.delete "}},
		{"remove it again", nil},
		{"remove a file by its id alone", []string{"media.delete "}},
		{"remove it again by its id", []string{"media.delete "}},
		{"drop a row through the query engine", nil},
	} {
		st, ok := byName[tc.step]
		if !ok {
			t.Fatalf("no step %q", tc.step)
		}
		from := rc.count()
		status, body := c.step(t, st)
		if status >= 500 {
			t.Fatalf("%s: %d %s", tc.step, status, body)
		}
		var got []string
		for _, ev := range deliveries(t, rc, from, len(tc.events)) {
			got = append(got, ev.Event+" "+ev.Model)
		}
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(tc.events, "\n") {
			t.Errorf("%s: webhooks\n%s\nwant\n%s", tc.step, strings.Join(got, "\n"), strings.Join(tc.events, "\n"))
		}
	}
}

// TestMediaCodeRemoveRolledBack: a file removed by a before hook goes with the write that
// fired the hook: when the hook then refuses the delete, the write rolls back and the file
// stays, row and stored content (Strapi would have deleted the stored file already).
func TestMediaCodeRemoveRolledBack(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "mediacode"))
	hooks := filepath.Join(app, "src", "api", "banner", "content-types", "banner", "lifecycles.js")
	src, err := os.ReadFile(hooks)
	if err != nil {
		t.Fatal(err)
	}
	const at = "await strapi.plugin('upload').service('upload').remove(banner.image);"
	if !strings.Contains(string(src), at) {
		t.Fatal("the banner's lifecycle removes no image")
	}
	locked := at + "\n      if (banner.title === 'Locked') throw new (require('@strapi/utils').errors.ApplicationError)('This banner is locked');"
	if err := os.WriteFile(hooks, []byte(strings.Replace(string(src), at, locked, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := start(t, backends()[0], app)
	c := &ownCodeClient{srv: srv, jwts: map[string]string{}}
	for _, st := range []ownCodeStep{
		{Name: "a locked banner", Method: "POST", Path: "/api/banners", Body: `{"data":{"title":"Locked"}}`},
		{Name: "its image", Method: "POST", Path: "/api/media", Form: []formPart{
			{Name: "ref", Value: "api::banner.banner"}, {Name: "refId", Value: "1"}, {Name: "field", Value: "image"},
			{Name: "files", File: "mediacode/manual.txt", Type: "text/plain"},
		}, Keep: map[string]string{"image": "0.url"}},
	} {
		if status, body := c.step(t, st); status != 200 {
			t.Fatalf("%s: %d %s", st.Name, status, body)
		}
	}
	for _, tc := range []struct {
		st     ownCodeStep
		status int
		body   string
	}{
		{ownCodeStep{Name: "delete it", Method: "DELETE", Path: "/api/banners/1"}, 400,
			`{"data":null,"error":{"status":400,"name":"ApplicationError","message":"This banner is locked","details":{}}}`},
		{ownCodeStep{Name: "its image is stored", Path: "{image}"}, 200, "Assembly manual\n\n1. Unpack.\n2. Enjoy.\n"},
		{ownCodeStep{Name: "its image is linked", Path: "/api/banners/1?populate[image][fields][0]=name"}, 200,
			`{"data":{"id":1,"attributes":{"title":"Locked","createdAt":"<time>","updatedAt":"<time>","image":{"data":{"id":1,"attributes":{"name":"manual.txt"}}}}},"meta":{}}`},
	} {
		if status, body := c.step(t, tc.st); status != tc.status || body != tc.body {
			t.Errorf("%s: %d %s\nwant %d %s", tc.st.Name, status, body, tc.status, tc.body)
		}
	}
}

// TestMediaCodeFolder: the upload service's upload() files nothing in a folder (the
// plugin's content-API route puts files in "API Uploads"), and updateFileInfo's folder
// moves the file, as the plugin's service does: null to the root (no folder, folderPath
// "/"), an id into that folder (its path).
func TestMediaCodeFolder(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "mediacode"))
	srv := start(t, backends()[0], app)
	c := &ownCodeClient{srv: srv, jwts: map[string]string{}}
	db := openDB(t, srv)
	where := func() (links int, path string) {
		t.Helper()
		if err := db.QueryRow(rebind(srv, `SELECT COUNT(*) FROM files_folder_links WHERE file_id = ?`), 2).Scan(&links); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(rebind(srv, `SELECT folder_path FROM files WHERE id = ?`), 2).Scan(&path); err != nil {
			t.Fatal(err)
		}
		return links, path
	}
	manual := []formPart{{Name: "files", File: "mediacode/manual.txt", Type: "text/plain"}}
	if status, body := c.step(t, ownCodeStep{Name: "the API Uploads folder, made by the plugin's route", Method: "POST", Path: "/api/upload", Form: manual}); status != 200 {
		t.Fatalf("POST /api/upload: %d %s", status, body)
	}
	for _, tc := range []struct {
		st     ownCodeStep
		status int
		links  int
		path   string
	}{
		{ownCodeStep{Name: "a file of the upload service's, in no folder", Method: "POST", Path: "/api/media", Form: manual}, 200, 0, "/"},
		{ownCodeStep{Name: "into the folder", Method: "PUT", Path: "/api/media/2/rename", Body: `{"folder":1}`}, 200, 1, "/1"},
		{ownCodeStep{Name: "renamed, it stays", Method: "PUT", Path: "/api/media/2/rename", Body: `{"name":"guide.txt"}`}, 200, 1, "/1"},
		{ownCodeStep{Name: "to the root", Method: "PUT", Path: "/api/media/2/rename", Body: `{"folder":null}`}, 200, 0, "/"},
		{ownCodeStep{Name: "to a missing folder", Method: "PUT", Path: "/api/media/2/rename", Body: `{"folder":7}`}, 400, 0, "/"},
		{ownCodeStep{Name: "back", Method: "PUT", Path: "/api/media/2/rename", Body: `{"folder":"1"}`}, 200, 1, "/1"},
	} {
		status, body := c.step(t, tc.st)
		links, path := where()
		if status != tc.status || links != tc.links || path != tc.path {
			t.Errorf("%s: %d %s, %d links, folderPath %q; want %d, %d, %q", tc.st.Name, status, body, links, path, tc.status, tc.links, tc.path)
		}
	}
}
