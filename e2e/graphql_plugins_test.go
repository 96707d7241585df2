package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The GraphQL faces of the upload and i18n plugins, end to end on every database: the
// upload mutations over multipart requests, files' related entries, folders, locales and
// create<Type>Localization.

// gqlFile is one file of a GraphQL multipart request, under its map key.
type gqlFile struct {
	key, filename, ctype string
	body                 []byte
	paths                []string // where the file goes, e.g. "variables.file"
}

// gqlMultipart sends a GraphQL multipart request (operations, map, files) as token.
func (s *server) gqlMultipart(t *testing.T, token, query string, vars map[string]any, files ...gqlFile) (int, string) {
	t.Helper()
	ops, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]string{}
	parts := []part{field("operations", string(ops))}
	for _, f := range files {
		m[f.key] = f.paths
	}
	mb, _ := json.Marshal(m)
	parts = append(parts, field("map", string(mb)))
	for _, f := range files {
		parts = append(parts, filepart(f.key, f.filename, f.ctype, f.body))
	}
	body, ct := multipartBody(t, parts...)
	st, b, _ := s.send(t, token, "POST", "/graphql", ct, body)
	return st, graphQLText(b)
}

// want fails unless the answer has the status and contains every fragment.
func want(t *testing.T, what string, st int, body string, status int, contains ...string) {
	t.Helper()
	if st != status {
		t.Fatalf("%s: got %d %s, want %d", what, st, body, status)
	}
	for _, c := range contains {
		if !strings.Contains(body, c) {
			t.Fatalf("%s: got %s\nwant it to contain %s", what, body, c)
		}
	}
}

// storedFiles lists the uploads folder (without temporary files).
func storedFiles(t *testing.T, dir string) []string {
	t.Helper()
	names := settledDir(t, dir)
	sort.Strings(names)
	return names
}

func TestGraphQLMedia(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyApp(t, "../examples/blog", `{}`)
			s := start(t, be, app)
			uploads := filepath.Join(app, "public", "uploads")
			db := openDB(t, s)
			photo := pngOf(t, 300, 200)

			// upload: one file with its information, filed in the API Uploads folder.
			st, body := s.gqlMultipart(t, s.Token, `mutation($file: Upload!) { upload(file: $file, info: {name: "cover.png", alternativeText: "A cover"}) { data { id attributes { name alternativeText caption mime ext width height url provider formats related { __typename } } } } }`,
				map[string]any{"file": nil}, gqlFile{key: "0", filename: "photo.png", ctype: "image/png", body: photo, paths: []string{"variables.file"}})
			want(t, "upload", st, body, 200, `{"data":{"upload":{"data":{"id":"1","attributes":{"name":"cover.png","alternativeText":"A cover","caption":null,"mime":"image/png","ext":".png","width":300,"height":200,"url":"/uploads/cover_`,
				`"provider":"local"`, `"thumbnail":{`, `"related":[]}}}}}`)
			var up struct {
				Data struct {
					Upload struct {
						Data struct {
							Attributes struct{ URL string }
						}
					}
				}
			}
			json.Unmarshal([]byte(body), &up)
			if _, err := os.Stat(filepath.Join(uploads, strings.TrimPrefix(up.Data.Upload.Data.Attributes.URL, "/uploads/"))); err != nil {
				t.Fatalf("uploaded file not stored: %v", err)
			}

			// multipleUpload attaches the files to an entry's media attribute.
			s.gql(t, `mutation { createArticle(data: {title: "With media", cover: 1, publishedAt: "2024-01-01T00:00:00.000Z"}) { data { id } } }`, nil)
			st, body = s.gqlMultipart(t, s.Token, `mutation($files: [Upload]!) { multipleUpload(files: $files, ref: "api::article.article", refId: "1", field: "gallery") { data { id attributes { name } } } }`,
				map[string]any{"files": []any{nil, nil}},
				gqlFile{key: "a", filename: "g1.png", ctype: "image/png", body: pngOf(t, 40, 30), paths: []string{"variables.files.0"}},
				gqlFile{key: "b", filename: "g2.png", ctype: "image/png", body: pngOf(t, 40, 30), paths: []string{"variables.files.1"}})
			want(t, "multipleUpload", st, body, 200, `{"data":{"multipleUpload":[{"data":{"id":"2","attributes":{"name":"g1.png"}}},{"data":{"id":"3","attributes":{"name":"g2.png"}}}]}}`)

			// Media populate, with the files' related entries (GenericMorph).
			wantJSON(t, "media and related", s.gql(t, `{ articles { data { id attributes { cover { data { id attributes { name related { __typename ... on Article { title } } } } } gallery(sort: "id:desc") { data { id attributes { name } } } } } } }`, nil),
				`{"data":{"articles":{"data":[{"id":"1","attributes":{"cover":{"data":{"id":"1","attributes":{"name":"cover.png","related":[{"__typename":"Article","title":"With media"}]}}},"gallery":{"data":[{"id":"3","attributes":{"name":"g2.png"}},{"id":"2","attributes":{"name":"g1.png"}}]}}}]}}}`)
			wantJSON(t, "uploadFiles", s.gql(t, `{ uploadFiles(filters: {name: {startsWith: "g"}}, sort: "id") { data { id attributes { name related { ... on Article { title } ... on Writer { name } } } } meta { pagination { total } } } uploadFile(id: 1) { data { attributes { mime } } } }`, nil),
				`{"data":{"uploadFiles":{"data":[{"id":"2","attributes":{"name":"g1.png","related":[{"title":"With media"}]}},{"id":"3","attributes":{"name":"g2.png","related":[{"title":"With media"}]}}],"meta":{"pagination":{"total":2}}},"uploadFile":{"data":{"attributes":{"mime":"image/png"}}}}}`)
			// The folder every API upload goes to.
			wantJSON(t, "uploadFolders", s.gql(t, `{ uploadFolders { data { id attributes { name path parent { data { id } } files(sort: "id") { data { id } } } } } }`, nil),
				`{"data":{"uploadFolders":{"data":[{"id":"1","attributes":{"name":"API Uploads","path":"/1","parent":{"data":null},"files":{"data":[{"id":"1"},{"id":"2"},{"id":"3"}]}}}]}}}`)

			// updateFileInfo: given values change, null ones keep the stored value.
			wantJSON(t, "updateFileInfo", s.gql(t, `mutation { updateFileInfo(id: 1, info: {caption: "Caption", alternativeText: null}) { data { id attributes { name alternativeText caption } } } }`, nil),
				`{"data":{"updateFileInfo":{"data":{"id":"1","attributes":{"name":"cover.png","alternativeText":"A cover","caption":"Caption"}}}}}`)
			_, body = s.gqlCall(t, s.Token, `mutation { updateFileInfo(id: 99, info: {name: "x"}) { data { id } } }`, nil)
			wantJSON(t, "updateFileInfo unknown", body, `{"errors":[{"message":"Entity not found","extensions":{"error":{"name":"NotFoundError","message":"Entity not found","details":{}},"code":"STRAPI_NOT_FOUND_ERROR"}}],"data":null}`)

			// removeFile: the file, its links and its stored files go.
			before := storedFiles(t, uploads)
			wantJSON(t, "removeFile", s.gql(t, `mutation { removeFile(id: 3) { data { id attributes { name related { __typename } } } } }`, nil),
				`{"data":{"removeFile":{"data":{"id":"3","attributes":{"name":"g2.png","related":[]}}}}}`)
			wantJSON(t, "removeFile again", s.gql(t, `mutation { removeFile(id: 3) { data { id } } }`, nil), `{"data":{"removeFile":null}}`)
			wantJSON(t, "removed file", s.gql(t, `{ uploadFile(id: 3) { data { id } } article(id: 1) { data { attributes { gallery { data { id } } } } } }`, nil),
				`{"data":{"uploadFile":{"data":null},"article":{"data":{"attributes":{"gallery":{"data":[{"id":"2"}]}}}}}}`)
			if after := storedFiles(t, uploads); len(after) >= len(before) {
				t.Fatalf("removeFile left its stored files: %v → %v", before, after)
			}
			var links int
			if err := db.QueryRow(`SELECT COUNT(*) FROM files_related_morphs WHERE file_id = 3`).Scan(&links); err != nil || links != 0 {
				t.Fatalf("morph links of a removed file: %d %v", links, err)
			}

			// Failures leave nothing behind.
			before = storedFiles(t, uploads)
			st, body = s.gqlMultipart(t, s.Token, `mutation($files: [Upload]!) { multipleUpload(files: $files) { data { id } } }`,
				map[string]any{"files": []any{nil, nil}},
				gqlFile{key: "0", filename: "ok.png", ctype: "image/png", body: photo, paths: []string{"variables.files.0"}},
				gqlFile{key: "1", filename: "bad.png", ctype: "image/png", body: []byte("not a png"), paths: []string{"variables.files.1"}})
			want(t, "bad file", st, body, 200, `"data":null`, `"code":"BAD_USER_INPUT"`)
			st, body = s.gqlMultipart(t, s.Token, `mutation($file: Upload!) { upload(file: $file, ref: "api::article.article", refId: "1", field: "cover") { data { id } } }`,
				map[string]any{"file": nil}, gqlFile{key: "0", filename: "c.txt", ctype: "text/plain", body: []byte("text"), paths: []string{"variables.file"}})
			want(t, "allowedTypes", st, body, 200, `cover only accepts images`)
			b, ct := multipartBody(t, field("operations", `{"query":"mutation($file: Upload!) { upload(file: $file) { data { id } } }","variables":{"file":null}}`),
				field("map", `{"0":["variables.file"]}`))
			st, raw, _ := s.send(t, s.Token, "POST", "/graphql", ct, b)
			want(t, "file missing", st, string(raw), 200, `"message":"File missing in the request."`, `"data":null`)
			st, body = s.gqlMultipart(t, s.Token, `mutation($file: Upload!) { upload(file: $file) { data { id } } }`, map[string]any{"file": nil},
				gqlFile{key: "0", filename: "a.png", ctype: "image/png", body: photo, paths: []string{"query.x.y"}})
			want(t, "bad map path", st, body, 400, `"name":"BadRequestError"`, `Invalid object path for the ‘map’ multipart field entry key ‘0’`)
			b, ct = multipartBody(t, field("map", `{}`))
			st, raw, _ = s.send(t, s.Token, "POST", "/graphql", ct, b)
			want(t, "no operations", st, string(raw), 400, `{"data":null,"error":{"status":400,"name":"BadRequestError","message":"Misordered multipart fields; ‘map’ should follow ‘operations’ (https://github.com/jaydenseric/graphql-multipart-request-spec)."}}`)
			b, ct = multipartBody(t, field("operations", `{"query":"{ __typename }"}`), field("map", `[1]`))
			st, raw, _ = s.send(t, s.Token, "POST", "/graphql", ct, b)
			want(t, "map not an object", st, string(raw), 400, `Invalid type for the ‘map’ multipart field`)
			st, body = s.gqlCall(t, s.Token, `mutation { upload(file: "x") { data { id } } }`, nil)
			want(t, "upload literal", st, body, 400, `"message":"Upload literal unsupported."`, `"code":"GRAPHQL_VALIDATION_FAILED"`)
			st, body = s.gqlCall(t, s.Token, `mutation($f: Upload!) { upload(file: $f) { data { id } } }`, map[string]any{"f": "x"})
			want(t, "upload variable", st, body, 400, `"message":"Variable \"$f\" got invalid value \"x\"; Upload value invalid."`)
			if after := storedFiles(t, uploads); strings.Join(after, ",") != strings.Join(before, ",") {
				t.Fatalf("failed uploads left files:\n%v\nwas\n%v", after, before)
			}
			var n int
			db.QueryRow(`SELECT COUNT(*) FROM files`).Scan(&n)
			if n != 2 {
				t.Fatalf("%d file rows after failures, want 2", n)
			}

			// Permissions: the upload plugin's actions, as in REST.
			readOnly := strings.TrimSpace(quarry(t, s.Env, "tokens", "create", "--app", s.App, "--name", "ro", "--type", "read-only"))
			_, body = s.gqlCall(t, readOnly, `{ uploadFiles { meta { pagination { total } } } }`, nil)
			wantJSON(t, "read-only find", body, `{"data":{"uploadFiles":{"meta":{"pagination":{"total":2}}}}}`)
			st, body = s.gqlMultipart(t, readOnly, `mutation($file: Upload!) { upload(file: $file) { data { id } } }`, map[string]any{"file": nil},
				gqlFile{key: "0", filename: "a.png", ctype: "image/png", body: photo, paths: []string{"variables.file"}})
			wantJSON(t, "read-only upload", body, `{"errors":[{"message":"Forbidden access","extensions":{"error":{"name":"ForbiddenError","message":"Forbidden access","details":{}},"code":"FORBIDDEN"}}],"data":null}`)
			_, body = s.gqlCall(t, readOnly, `mutation { removeFile(id: 1) { data { id } } }`, nil)
			want(t, "read-only remove", 200, body, 200, `"code":"FORBIDDEN"`)
			_, body = s.gqlCall(t, "", `{ uploadFiles { data { id } } }`, nil)
			want(t, "public find", 200, body, 200, `"code":"FORBIDDEN"`)
			_, body = s.gqlCall(t, "", `{ uploadFolders { data { id } } }`, nil)
			want(t, "folders need plugin::upload.folder.find", 200, body, 200, `"code":"FORBIDDEN"`)
		})
	}
}

func TestGraphQLI18n(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyApp(t, "../examples/blog", `{}`)
			s := start(t, be, app)
			db := openDB(t, s)

			wantJSON(t, "i18NLocales", s.gql(t, `{ i18NLocales(sort: "code:desc") { data { id attributes { code name } } meta { pagination { total } } } i18NLocale(id: 1) { data { attributes { code } } } }`, nil),
				`{"data":{"i18NLocales":{"data":[{"id":"2","attributes":{"code":"fr","name":"French (fr)"}},{"id":"1","attributes":{"code":"en","name":"English (en)"}}],"meta":{"pagination":{"total":2}}},"i18NLocale":{"data":{"attributes":{"code":"en"}}}}}`)
			_, body := s.gqlCall(t, "", `{ i18NLocales { data { id } } }`, nil)
			want(t, "public locales", 200, body, 200, `"code":"FORBIDDEN"`)

			// A base entry in the default locale, then its French localization.
			s.gql(t, `mutation { createPage(data: {title: "About", body: "About us", views: 5, publishedAt: "2024-01-03T00:00:00.000Z"}) { data { id } } }`, nil)
			s.gql(t, `mutation { createPage(locale: "fr", data: {title: "Autre", views: 1, publishedAt: "2024-01-03T00:00:00.000Z"}) { data { id } } }`, nil)
			wantJSON(t, "createPageLocalization", s.gql(t, `mutation { createPageLocalization(id: 1, locale: "fr", data: {title: "À propos", views: 20}) { data { id attributes { title body views locale publishedAt localizations(publicationState: PREVIEW) { data { id attributes { locale views } } } } } } }`, nil),
				`{"data":{"createPageLocalization":{"data":{"id":"3","attributes":{"title":"À propos","body":null,"views":20,"locale":"fr","publishedAt":null,"localizations":{"data":[{"id":"1","attributes":{"locale":"en","views":20}}]}}}}}}`)
			// Linked both ways; the shared views went to the base too.
			wantJSON(t, "group", s.gql(t, `{ pages(locale: "all", publicationState: PREVIEW, sort: "id") { data { id attributes { locale views localizations(publicationState: PREVIEW) { data { id } } } } } }`, nil),
				`{"data":{"pages":{"data":[{"id":"1","attributes":{"locale":"en","views":20,"localizations":{"data":[{"id":"3"}]}}},{"id":"2","attributes":{"locale":"fr","views":1,"localizations":{"data":[]}}},{"id":"3","attributes":{"locale":"fr","views":20,"localizations":{"data":[{"id":"1"}]}}}]}}}`)
			var rows []string
			r, err := db.Query(`SELECT page_id, inv_page_id, page_order FROM pages_localizations_links ORDER BY id`)
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				var a, b int
				var o float64
				r.Scan(&a, &b, &o)
				rows = append(rows, fmt.Sprintf("%d>%d@%v", a, b, o))
			}
			r.Close()
			if got := strings.Join(rows, " "); got != "3>1@1 1>3@1" {
				t.Fatalf("link rows %s, want 3>1@1 1>3@1 (Strapi's order)", got)
			}
			// Reads per locale combine with filters, sort and publication state.
			wantJSON(t, "locale reads", s.gql(t, `{ en: pages { data { id } } fr: pages(locale: "fr", publicationState: PREVIEW, filters: {views: {gte: 10}}) { data { id } } live: pages(locale: "fr") { data { id } } }`, nil),
				`{"data":{"en":{"data":[{"id":"1"}]},"fr":{"data":[{"id":"3"}]},"live":{"data":[{"id":"2"}]}}}`)

			// Bad locales, with Strapi's messages and nothing written.
			for _, c := range []struct{ args, msg string }{
				{`id: 1, data: {title: "Hallo"}`, `locale is missing`},
				{`id: 1, locale: "de", data: {title: "Hallo"}`, `locale is invalid`},
				{`id: 1, locale: "fr", data: {title: "Encore"}`, `locale is already used`},
				{`id: 3, locale: "en", data: {title: "Again"}`, `locale is already used`},
				{`id: 99, locale: "fr", data: {title: "Nope"}`, `Entity not found`},
			} {
				_, body := s.gqlCall(t, s.Token, `mutation { createPageLocalization(`+c.args+`) { data { id } } }`, nil)
				want(t, c.args, 200, body, 200, `"message":"`+c.msg+`"`, `"data":{"createPageLocalization":null}`)
			}
			_, body = s.gqlCall(t, s.Token, `mutation { createPage(locale: "de", data: {title: "Hallo"}) { data { id } } }`, nil)
			want(t, "create in unknown locale", 200, body, 200, `"message":"This locale doesn't exist"`)
			readOnly := strings.TrimSpace(quarry(t, s.Env, "tokens", "create", "--app", s.App, "--name", "ro", "--type", "read-only"))
			_, body = s.gqlCall(t, readOnly, `mutation { createPageLocalization(id: 1, locale: "fr", data: {title: "x"}) { data { id } } }`, nil)
			want(t, "createLocalization permission", 200, body, 200, `"code":"FORBIDDEN"`)
			var n int
			db.QueryRow(`SELECT COUNT(*) FROM pages`).Scan(&n)
			if n != 3 {
				t.Fatalf("%d pages after refused writes, want 3", n)
			}

			// Single types: one entry per locale.
			s.gql(t, `mutation { updateFooter(data: {text: "Hello", year: 2024}) { data { id } } }`, nil)
			wantJSON(t, "createFooterLocalization", s.gql(t, `mutation { createFooterLocalization(locale: "fr", data: {text: "Bonjour"}) { data { id attributes { text year locale localizations { data { id attributes { locale } } } } } } }`, nil),
				`{"data":{"createFooterLocalization":{"data":{"id":"2","attributes":{"text":"Bonjour","year":2024,"locale":"fr","localizations":{"data":[{"id":"1","attributes":{"locale":"en"}}]}}}}}}`)
			wantJSON(t, "update per locale", s.gql(t, `mutation { updateFooter(locale: "fr", data: {text: "Salut"}) { data { id attributes { text locale } } } }`, nil),
				`{"data":{"updateFooter":{"data":{"id":"2","attributes":{"text":"Salut","locale":"fr"}}}}}`)
			wantJSON(t, "read per locale", s.gql(t, `{ en: footer { data { attributes { text } } } fr: footer(locale: "fr") { data { attributes { text } } } }`, nil),
				`{"data":{"en":{"data":{"attributes":{"text":"Hello"}}},"fr":{"data":{"attributes":{"text":"Salut"}}}}}`)
			wantJSON(t, "delete per locale", s.gql(t, `mutation { deleteFooter(locale: "fr") { data { id attributes { locale } } } }`, nil),
				`{"data":{"deleteFooter":{"data":{"id":"2","attributes":{"locale":"fr"}}}}}`)
			wantJSON(t, "deleted locale", s.gql(t, `{ fr: footer(locale: "fr") { data { id } } en: footer { data { id attributes { localizations { data { id } } } } } }`, nil),
				`{"data":{"fr":{"data":null},"en":{"data":{"id":"1","attributes":{"localizations":{"data":[]}}}}}}`)
		})
	}
}
