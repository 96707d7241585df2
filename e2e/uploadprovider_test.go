package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUploadProviderUnsupported: a project whose upload provider is one Quarry does not have
// (Cloudinary, as many real projects configure it) is served, where Quarry refused to start:
// the media library is read as stored, and every write that would store or delete a file —
// REST, GraphQL, the upload service from the project's code — answers NotImplementedError
// before anything is written.
func TestUploadProviderUnsupported(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyProject(t, filepath.Join("testdata", "projects", "txflow"))
			mustWrite(t, filepath.Join(app, "config", "plugins.js"), `module.exports = ({ env }) => ({
  upload: {
    config: {
      provider: 'cloudinary',
      providerOptions: { cloud_name: env('CLOUDINARY_NAME'), api_key: env('CLOUDINARY_KEY'), api_secret: env('CLOUDINARY_SECRET') },
      actionOptions: { upload: {}, uploadStream: {}, delete: {} },
    },
  },
});
`)
			writeReceiptRoute(t, app, "url")
			srv := start(t, be, app)
			out := quarry(t, srv.Env, "routes", "--app", app)
			for _, l := range strings.Split(out, "\n") {
				refused := strings.Contains(l, " refused ")
				for _, route := range []string{"POST     /api/upload ", "DELETE   /api/upload/files/:id ", "GRAPHQL  Mutation.upload ", "GRAPHQL  Mutation.multipleUpload ", "GRAPHQL  Mutation.removeFile "} {
					if strings.HasPrefix(l, route) && (!refused || !strings.Contains(l, `the upload provider "cloudinary"`)) {
						t.Errorf("not refused for the provider: %q", l)
					}
				}
				for _, route := range []string{"GET      /api/upload/files ", "GRAPHQL  Query.uploadFiles ", "GRAPHQL  Mutation.updateFileInfo "} {
					if strings.HasPrefix(l, route) && refused {
						t.Errorf("refused: %q", l)
					}
				}
			}
			db := openDB(t, srv)
			if _, err := db.Exec(rebind(srv, `INSERT INTO files (name, hash, ext, mime, size, url, provider, created_at, updated_at) VALUES ('shelf.jpg', 'shelf_a1', '.jpg', 'image/jpeg', 12.5, 'https://res.cloudinary.com/demo/image/upload/shelf_a1.jpg', 'cloudinary', '2026-01-02 03:04:05', '2026-01-02 03:04:05')`)); err != nil {
				t.Fatal(err)
			}
			if st, b := srv.doAs(t, srv.Token, "GET", "/api/upload/files/1", nil); st != 200 || !strings.Contains(string(b), `"url":"https://res.cloudinary.com/demo/image/upload/shelf_a1.jpg"`) {
				t.Errorf("GET /api/upload/files/1: %d %s", st, b)
			}
			png, err := os.ReadFile(filepath.Join("testdata", "projects", "red.png"))
			if err != nil {
				t.Fatal(err)
			}
			form, ctype := multipartBody(t, filepart("files", "red.png", "image/png", png))
			if st, b, _ := srv.send(t, srv.Token, "POST", "/api/upload", ctype, form); st != 501 || !strings.Contains(string(b), "NotImplementedError") {
				t.Errorf("POST /api/upload: %d %s", st, b)
			}
			if st, b := srv.doAs(t, srv.Token, "DELETE", "/api/upload/files/1", nil); st != 501 {
				t.Errorf("DELETE /api/upload/files/1: %d %s", st, b)
			}
			if st, b, _ := srv.send(t, "", "POST", "/api/orders/receipt", ctype, form); st != 501 || !strings.Contains(string(b), `the upload provider \"cloudinary\" is not one Quarry has`) {
				t.Errorf("the upload service's upload: %d %s", st, b)
			}
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM files`).Scan(&n); err != nil || n != 1 {
				t.Errorf("files after the refused writes: %d %v", n, err)
			}
		})
	}
}

// TestUnimplementedPluginRefused: the content-API routes of an enabled plugin Quarry does not
// implement (navigation, as package.json installs it) answer NotImplementedError naming it
// (Strapi's with --upstream), where they were 404s; other paths keep their 404.
func TestUnimplementedPluginRefused(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "txflow"))
	pkg := filepath.Join(app, "package.json")
	b, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, pkg, strings.Replace(string(b), `"dependencies": {`, `"dependencies": {
    "strapi-plugin-navigation": "2.5.0",`, 1))
	srv := start(t, backends()[0], app)
	if st, b := srv.doAs(t, "", "GET", "/api/navigation/render/main", nil); st != 501 || !strings.Contains(string(b), "the plugin navigation, which Quarry does not implement") {
		t.Errorf("GET /api/navigation/render/main: %d %s", st, b)
	}
	if st, _ := srv.doAs(t, "", "GET", "/api/nothing-here", nil); st != 404 {
		t.Errorf("GET /api/nothing-here: %d", st)
	}
	if st, _ := srv.doAs(t, "", "GET", "/api/products", nil); st != 200 {
		t.Errorf("GET /api/products: %d", st)
	}
}
