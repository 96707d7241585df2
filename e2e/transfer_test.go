package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests in this file move data between real Strapi 4.26.2 (the oracle kit) and Quarry
// through Strapi's data-transfer archives: `strapi export` → `quarry import`, and
// `quarry export` → `strapi import`. The reference for an import is always Strapi's own import
// of the same archive on a fresh database: Strapi creates the archive's entries anew (new
// ids, in archive order), and Quarry does as it does.

// transferReads are the requests compared after an import: every entry with its components,
// relations, media and localizations, the media library and a GraphQL read.
var transferReads = append(append([]string{}, readBack...),
	"/api/upload/files?sort=id",
	"/api/pages?populate[localizations][fields][0]=title&locale=all&sort=id",
	"/api/articles?populate[cover]=true&populate[gallery]=true&populate[seo][populate]=image&publicationState=preview&sort=id",
)

// seedStrapi writes the recorded writes, two uploads attached to an article and to the
// homepage's seo, and a page with a French localization through s.
func seedStrapi(t *testing.T, s *server) {
	t.Helper()
	for _, w := range recordedWrites(t) {
		w.send(t, s)
	}
	for i, png := range [][]byte{pngOf(t, 1200, 800), pngOf(t, 20, 10)} {
		if st, body := s.upload(t, "/api/upload", filepart("files", fmt.Sprintf("image-%d.png", i), "image/png", png)); st != 200 && st != 201 {
			t.Fatalf("upload: %d %s", st, body)
		}
	}
	for _, w := range []struct{ method, path, body string }{
		{"PUT", "/api/articles/1", `{"data":{"cover":1,"gallery":[2,1]}}`},
		{"PUT", "/api/homepage", `{"data":{"seo":{"metaTitle":"With image","image":2}}}`},
		{"POST", "/api/pages", `{"data":{"title":"Contact","views":5,"seo":{"metaTitle":"Contact SEO","keywords":[{"word":"a"},{"word":"b"}]},"author":2,"publishedAt":"2024-01-01T00:00:00.000Z"}}`},
		{"POST", "/api/pages/1/localizations", `{"title":"Contactez","locale":"fr","publishedAt":"2024-01-02T00:00:00.000Z","seo":{"metaTitle":"Contact FR"}}`},
	} {
		if st, body := s.do(t, w.method, w.path, []byte(w.body)); st != 200 {
			t.Fatalf("%s %s: %d %s", w.method, w.path, st, body)
		}
	}
}

// strapiCLI runs a strapi command (export, import) in the kit's assembled app against the
// database db, as `npm run strapi` would there.
func (o *strapiOracle) strapiCLI(t *testing.T, db string, args ...string) string {
	t.Helper()
	cache := envValue(o.env, "ORACLE_CACHE_DIR")
	app := filepath.Join(cache, "app")
	u, err := url.Parse(envValue(o.env, "ORACLE_PG_URL"))
	if err != nil {
		t.Fatal(err)
	}
	pass, _ := u.User.Password()
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	cmd := exec.Command("node", append([]string{filepath.Join(app, "node_modules/@strapi/strapi/bin/strapi.js")}, args...)...)
	cmd.Dir = app
	cmd.Env = append(os.Environ(), "NODE_ENV=production", "DATABASE_NAME="+db, "DATABASE_HOST="+u.Hostname(),
		"DATABASE_PORT="+port, "DATABASE_USERNAME="+u.User.Username(), "DATABASE_PASSWORD="+pass,
		"STRAPI_TELEMETRY_DISABLED=true", "STRAPI_DISABLE_UPDATE_NOTIFICATION=true", "ORACLE_RUN_DIR="+filepath.Join(cache, "run"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("strapi %v: %v\n%s", args, err, out.String())
	}
	return out.String()
}

// dbName is the oracle's database.
func (o *strapiOracle) dbName() string { return envValue(o.env, "ORACLE_PG_DB") }

// importedStrapi runs `strapi import --force` of archive into a fresh database, starts the
// kit's Strapi on it (the oracle's own database stays as it is) and returns it.
func (o *strapiOracle) importedStrapi(t *testing.T, archive string, args ...string) *server {
	t.Helper()
	admin := os.Getenv("QUARRY_TEST_POSTGRES_URL")
	conn, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	db := fmt.Sprintf("quarry_strapi_import_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := conn.Exec("CREATE DATABASE " + db); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := sql.Open("pgx", admin); err == nil {
			c.Exec("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)")
			c.Close()
		}
	})
	o.strapiCLI(t, db, append([]string{"import", "-f", archive, "--force"}, args...)...)
	env := append([]string{}, o.env...)
	for i, kv := range env {
		if strings.HasPrefix(kv, "ORACLE_PG_DB=") {
			env[i] = "ORACLE_PG_DB=" + db
		}
	}
	o2 := &strapiOracle{kit: o.kit, app: o.app, env: env, URL: o.URL}
	o2.run(t, "start.sh", "--app", o.app)
	return o2.server()
}

// readAll sends the compared reads as the full-access caller and keeps the bodies.
func readAll(t *testing.T, s *server) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range transferReads {
		status, body := s.do(t, "GET", p, nil)
		if status != 200 {
			t.Fatalf("GET %s: %d %s", p, status, body)
		}
		out[p] = string(body)
	}
	return out
}

// archivedUploads lists the files of a plain archive's assets/uploads.
func archivedUploads(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		if name, ok := strings.CutPrefix(h.Name, "assets/uploads/"); ok {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no files", path)
	}
	return out
}

func compareReads(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for _, p := range transferReads {
		if want[p] != got[p] {
			t.Errorf("%s: GET %s differs\nwant: %s\ngot:  %s", what, p, want[p], got[p])
		}
	}
}

// TestImportStrapiExport: archives written by real `strapi export` (plain, gzip'ed, gzip'ed
// and encrypted) import into Quarry on every database, and Quarry then answers the content
// API as real Strapi answers after importing the same archive.
func TestImportStrapiExport(t *testing.T) {
	o := startStrapi(t, nil)
	seedStrapi(t, o.server())
	dir := t.TempDir()
	o.strapiCLI(t, o.dbName(), "export", "--no-encrypt", "--no-compress", "-f", filepath.Join(dir, "plain"))
	o.strapiCLI(t, o.dbName(), "export", "--no-encrypt", "-f", filepath.Join(dir, "packed"))
	o.strapiCLI(t, o.dbName(), "export", "--key", "e2e-secret", "-f", filepath.Join(dir, "sealed"))
	want := readAll(t, o.importedStrapi(t, filepath.Join(dir, "plain.tar")))
	stored := archivedUploads(t, filepath.Join(dir, "plain.tar"))

	archives := []struct {
		name string
		args []string
	}{
		{"plain.tar", nil},
		{"packed.tar.gz", nil},
		{"sealed.tar.gz.enc", []string{"--key", "e2e-secret"}},
	}
	for _, be := range backends() {
		for _, ar := range archives {
			t.Run(be.Name+"/"+ar.name, func(t *testing.T) {
				app := filepath.Join(t.TempDir(), "blog")
				if out, err := exec.Command("cp", "-r", o.app, app).CombinedOutput(); err != nil {
					t.Fatalf("copy app: %v %s", err, out)
				}
				env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn")
				out := quarry(t, env, append([]string{"import", "--app", app, "-f", filepath.Join(dir, ar.name)}, ar.args...)...)
				if !strings.Contains(out, "imported") {
					t.Fatalf("quarry import: %s", out)
				}
				token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
				q := serve(t, env, app, token)
				compareReads(t, "quarry after import", want, readAll(t, q))
				// Every file of the archive is in the uploads, under the name its row gives.
				for _, name := range stored {
					if _, err := os.Stat(filepath.Join(app, "public", "uploads", name)); err != nil {
						t.Errorf("the archive's file %s is not in the uploads: %v", name, err)
					}
				}
			})
		}
	}

	// A wrong key, a file that is no archive, and a schema that differs are refused and change
	// nothing.
	t.Run("refusals", func(t *testing.T) {
		be := backends()[0]
		app := filepath.Join(t.TempDir(), "blog")
		if out, err := exec.Command("cp", "-r", o.app, app).CombinedOutput(); err != nil {
			t.Fatalf("copy app: %v %s", err, out)
		}
		env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn")
		quarry(t, env, "import", "--app", app, "-f", filepath.Join(dir, "plain.tar"))
		token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
		before := readAll(t, serve(t, env, app, token))
		fail := func(args ...string) string {
			t.Helper()
			cmd := exec.Command(binary, append([]string{"import", "--app", app}, args...)...)
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("quarry import %v succeeded:\n%s", args, out)
			}
			return string(out)
		}
		if out := fail("-f", filepath.Join(dir, "sealed.tar.gz.enc"), "--key", "wrong"); !strings.Contains(out, "key is incorrect") {
			t.Errorf("wrong key: %s", out)
		}
		junk := filepath.Join(t.TempDir(), "junk.tar.gz")
		os.WriteFile(junk, []byte("not an archive at all"), 0o644)
		if out := fail("-f", junk); !strings.Contains(out, "not a valid Strapi data file") {
			t.Errorf("junk: %s", out)
		}
		// An enumeration's values changed: the column stays, the schemas differ.
		schema := filepath.Join(app, "src/api/article/content-types/article/schema.json")
		raw, _ := os.ReadFile(schema)
		os.WriteFile(schema, bytes.Replace(raw, []byte(`"a-b"]`), []byte(`"a-b", "new"]`), 1), 0o644)
		if out := fail("-f", filepath.Join(dir, "plain.tar")); !strings.Contains(out, "api::article.article.attributes.category.enum has a different data type") {
			t.Errorf("schema change: %s", out)
		}
		os.WriteFile(schema, raw, 0o644)
		compareReads(t, "after refused imports", before, readAll(t, serve(t, env, app, token)))
	})
}

// TestStrapiImportsQuarryExport: an archive written by `quarry export` on every database is
// accepted by real `strapi import`, and Strapi then answers as Quarry does after importing the
// same archive.
func TestStrapiImportsQuarryExport(t *testing.T) {
	o := startStrapi(t, nil)
	dir := t.TempDir()
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			q := start(t, be, o.app)
			seedStrapi(t, q)
			base := filepath.Join(dir, be.Name)
			quarry(t, q.Env, "export", "--app", o.app, "-f", base, "--key", "e2e-secret")
			archive := base + ".tar.gz.enc"

			app := filepath.Join(t.TempDir(), "blog")
			if out, err := exec.Command("cp", "-r", o.app, app).CombinedOutput(); err != nil {
				t.Fatalf("copy app: %v %s", err, out)
			}
			env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn")
			quarry(t, env, "import", "--app", app, "-f", archive, "--key", "e2e-secret")
			token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
			want := readAll(t, serve(t, env, app, token))

			s := o.importedStrapi(t, archive, "--key", "e2e-secret")
			compareReads(t, "strapi after importing quarry's export", want, readAll(t, s))
		})
	}
}

// TestImportExportS3: an archive's files go to the aws-s3 provider's bucket on import (the
// rows point at the objects' urls), and an export reads them back from the bucket.
func TestImportExportS3(t *testing.T) {
	gw := startS3(t)
	be := backends()[0]
	// A local app with two images, exported.
	local := copyApp(t, "../examples/blog", `{}`)
	q := start(t, be, local)
	for i, png := range [][]byte{pngOf(t, 1200, 800), pngOf(t, 20, 10)} {
		if st, body := q.upload(t, "/api/upload", filepart("files", fmt.Sprintf("image-%d.png", i), "image/png", png)); st != 200 && st != 201 {
			t.Fatalf("upload: %d %s", st, body)
		}
	}
	dir := t.TempDir()
	quarry(t, q.Env, "export", "--app", local, "--no-encrypt", "-f", filepath.Join(dir, "local"))
	stored := archivedUploadsGz(t, filepath.Join(dir, "local.tar.gz"))

	bucket := "media-import"
	gw.publicBucket(t, bucket)
	app := s3App(t)
	env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn",
		"AWS_ACCESS_KEY_ID="+s3Key, "AWS_ACCESS_SECRET="+s3Secret, "AWS_REGION=us-east-1",
		"S3_ENDPOINT="+gw.URL, "S3_FORCE_PATH_STYLE=true", "AWS_BUCKET="+bucket, "CDN_ROOT_PATH=site/")
	quarry(t, env, "import", "--app", app, "-f", filepath.Join(dir, "local.tar.gz"))
	keys := strings.Join(gw.keys(t, bucket), " ")
	for _, name := range stored {
		if !strings.Contains(keys, "site/"+name) {
			t.Errorf("object site/%s not in the bucket: %s", name, keys)
		}
	}
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
	s := serve(t, env, app, token)
	if st, body := s.do(t, "GET", "/api/upload/files", nil); st != 200 || !strings.Contains(string(body), gw.URL+"/"+bucket+"/site/") || !strings.Contains(string(body), `"provider":"aws-s3"`) {
		t.Errorf("files after import: %d %s", st, body)
	}
	quarry(t, env, "export", "--app", app, "--no-encrypt", "-f", filepath.Join(dir, "s3"))
	if got := archivedUploadsGz(t, filepath.Join(dir, "s3.tar.gz")); len(got) != len(stored) {
		t.Errorf("export from the bucket: %v, want %v", got, stored)
	}
}

// archivedUploadsGz lists the files of a gzip'ed archive's assets/uploads.
func archivedUploadsGz(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		if name, ok := strings.CutPrefix(h.Name, "assets/uploads/"); ok {
			out = append(out, name)
		}
	}
	return out
}
