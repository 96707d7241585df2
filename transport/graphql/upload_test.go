package graphql_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/parser/gqlschema"
	gql "github.com/quarrycms/quarry/transport/graphql"
	"github.com/quarrycms/quarry/transport/plugins/upload"
)

// newUploadEnv serves examples/blog with the upload plugin, files kept in a temporary folder.
func newUploadEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	return newEnvWith(t, gqlschema.DefaultConfig(), func(o *gql.Options) {
		svc, err := upload.New(context.Background(), dir, o.Schema, o.DB, func(string) string { return "" }, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		o.Upload = svc.GraphQLMultipart()
		o.Plugins = append(o.Plugins, svc.GraphQL())
	})
}

// seedFiles inserts n articles, each with its own cover file, directly in SQL.
func seedFiles(t *testing.T, e *env, n int) {
	t.Helper()
	now := time.Now().UnixMilli()
	x := func(q string, args ...any) {
		if _, err := e.db.Exec(e.db.Rebind(q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := 1; i <= n; i++ {
		x(`INSERT INTO articles (id, title, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?)`, i, fmt.Sprintf("article %d", i), now, now, now)
		x(`INSERT INTO files (id, name, hash, ext, mime, size, url, provider, created_at, updated_at) VALUES (?, ?, ?, '.png', 'image/png', 1, ?, 'local', ?, ?)`,
			i, fmt.Sprintf("f%d.png", i), fmt.Sprintf("f%d", i), fmt.Sprintf("/uploads/f%d.png", i), now, now)
		x(`INSERT INTO files_related_morphs (file_id, related_id, related_type, field, "order") VALUES (?, ?, 'api::article.article', 'cover', 1)`, i, i)
	}
	x(`INSERT INTO writers (id, name, created_at, updated_at) VALUES (1, 'Ann', ?, ?)`, now, now)
	x(`INSERT INTO files_related_morphs (file_id, related_id, related_type, field, "order") VALUES (1, 1, 'api::writer.writer', 'avatar', 1)`)
}

// TestRelatedStatements: a file's related entries are read for all the files of a result at
// once — one statement for the links and one per related type, whatever the number of
// files, as REST's populate=related.
func TestRelatedStatements(t *testing.T) {
	for _, n := range []int{1, 10, 50} {
		e := newUploadEnv(t)
		seedFiles(t, e, n)
		r := e.exec(fullAccess, `{ uploadFiles(pagination: {limit: 100}, sort: "id") { data { id attributes { name related { __typename ... on Article { title } ... on Writer { name } } } } } }`, nil)
		body := string(r.Body)
		if strings.Contains(body, `"errors"`) || !strings.Contains(body, `{"id":"1","attributes":{"name":"f1.png","related":[{"__typename":"Article","title":"article 1"},{"__typename":"Writer","name":"Ann"}]}}`) {
			t.Fatalf("n=%d: %.400s", n, body)
		}
		if r.Statements != 4 {
			t.Errorf("n=%d: %d statements, want 4 (files, links, articles, writers)", n, r.Statements)
		}
		r = e.exec(fullAccess, `{ articles(pagination: {limit: 100}) { data { attributes { cover { data { attributes { related { ... on Article { title } } } } } } } } }`, nil)
		if !strings.Contains(string(r.Body), `"cover":{"data":{"attributes":{"related":[{"title":"article 1"},{}]}}}`) {
			t.Fatalf("n=%d: nested related: %.300s", n, r.Body)
		}
		if r.Statements != 5 {
			t.Errorf("n=%d: nested related %d statements, want 5 (articles, covers, links, articles, writers)", n, r.Statements)
		}
	}
}

// TestRelatedPermissions: related entries of types the caller may not find are left out.
func TestRelatedPermissions(t *testing.T) {
	e := newUploadEnv(t)
	seedFiles(t, e, 1)
	r := e.exec(readOnlyCaller(), `{ uploadFile(id: 1) { data { attributes { related { __typename } } } } }`, nil)
	if got := string(r.Body); got != `{"data":{"uploadFile":{"data":{"attributes":{"related":[{"__typename":"Article"},{"__typename":"Writer"}]}}}}}` {
		t.Fatalf("read-only: %s", got)
	}
	r = e.exec(publicWith("plugin::upload.content-api.findOne", "api::writer.writer.find"), `{ uploadFile(id: 1) { data { attributes { related { __typename } } } } }`, nil)
	if got := string(r.Body); got != `{"data":{"uploadFile":{"data":{"attributes":{"related":[{"__typename":"Writer"}]}}}}}` {
		t.Fatalf("public without article.find: %s", got)
	}
}

func pngBytes(t *testing.T, w, h int) []byte {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// multipartRequest builds a GraphQL multipart request: fields in order, then files by key.
func multipartRequest(t *testing.T, fields [][2]string, files map[string][]byte) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	for k, body := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename="%s.png"`, k, k))
		h.Set("Content-Type", "image/png")
		w, _ := mw.CreatePart(h)
		w.Write(body)
	}
	mw.Close()
	return &b, mw.FormDataContentType()
}

// TestMultipart: the GraphQL multipart request spec, its errors worded as graphql-upload
// words them, in Strapi's error envelope.
func TestMultipart(t *testing.T) {
	e := newUploadEnv(t)
	send := func(fields [][2]string, files map[string][]byte) (int, string) {
		body, ct := multipartRequest(t, fields, files)
		req := httptest.NewRequest("POST", "/graphql", body)
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer full")
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		return rec.Code, strings.TrimSuffix(rec.Body.String(), "\n")
	}
	ops := func(q string, vars string) string {
		b, _ := json.Marshal(q)
		return `{"query":` + string(b) + `,"variables":` + vars + `}`
	}
	up := `mutation($f: Upload!, $i: FileInfoInput) { upload(file: $f, info: $i) { data { id attributes { name caption width } } } }`
	st, body := send([][2]string{{"operations", ops(up, `{"f":null,"i":{"caption":"c"}}`)}, {"map", `{"x":["variables.f"]}`}}, map[string][]byte{"x": pngBytes(t, 30, 20)})
	if st != 200 || body != `{"data":{"upload":{"data":{"id":"1","attributes":{"name":"x.png","caption":"c","width":30}}}}}` {
		t.Fatalf("upload: %d %s", st, body)
	}
	// Files in a list, in the order the map gives.
	multi := `mutation($fs: [Upload]!) { multipleUpload(files: $fs) { data { attributes { name } } } }`
	st, body = send([][2]string{{"operations", ops(multi, `{"fs":[null,null]}`)}, {"map", `{"a":["variables.fs.1"],"b":["variables.fs.0"]}`}},
		map[string][]byte{"a": pngBytes(t, 5, 5), "b": pngBytes(t, 6, 6)})
	if st != 200 || body != `{"data":{"multipleUpload":[{"data":{"attributes":{"name":"b.png"}}},{"data":{"attributes":{"name":"a.png"}}}]}}` {
		t.Fatalf("multipleUpload: %d %s", st, body)
	}
	// A part is stored once.
	st, body = send([][2]string{{"operations", ops(multi, `{"fs":[null,null]}`)}, {"map", `{"a":["variables.fs.0","variables.fs.1"]}`}},
		map[string][]byte{"a": pngBytes(t, 5, 5)})
	if st != 200 || !strings.Contains(body, `"message":"File ‘a’ is used more than once in the request."`) {
		t.Fatalf("file used twice: %d %s", st, body)
	}
	const spec = " (https://github.com/jaydenseric/graphql-multipart-request-spec)."
	for _, c := range []struct {
		name   string
		fields [][2]string
		status int
		want   string
	}{
		{"no operations", [][2]string{{"map", `{}`}}, 400, "Misordered multipart fields; ‘map’ should follow ‘operations’" + spec},
		{"nothing", [][2]string{{"other", `x`}}, 400, "Missing multipart field ‘operations’" + spec},
		{"no map", [][2]string{{"operations", ops(up, `{}`)}}, 400, "Missing multipart field ‘map’" + spec},
		{"operations not JSON", [][2]string{{"operations", `{`}, {"map", `{}`}}, 400, "Invalid JSON in the ‘operations’ multipart field" + spec},
		{"operations scalar", [][2]string{{"operations", `1`}, {"map", `{}`}}, 400, "Invalid type for the ‘operations’ multipart field" + spec},
		{"map not JSON", [][2]string{{"operations", ops(up, `{}`)}, {"map", `{`}}, 400, "Invalid JSON in the ‘map’ multipart field" + spec},
		{"map array", [][2]string{{"operations", ops(up, `{}`)}, {"map", `[]`}}, 400, "Invalid type for the ‘map’ multipart field" + spec},
		{"map entry not array", [][2]string{{"operations", ops(up, `{}`)}, {"map", `{"x":"variables.f"}`}}, 400, "Invalid type for the ‘map’ multipart field entry key ‘x’ array" + spec},
		{"map path not string", [][2]string{{"operations", ops(up, `{}`)}, {"map", `{"x":[1]}`}}, 400, "Invalid type for the ‘map’ multipart field entry key ‘x’ array index ‘0’ value" + spec},
		{"map path through a string", [][2]string{{"operations", ops(up, `{}`)}, {"map", `{"x":["query.a"]}`}}, 400, "Invalid object path for the ‘map’ multipart field entry key ‘x’ array index ‘0’ value ‘query.a’" + spec},
		{"map path prototype", [][2]string{{"operations", ops(up, `{}`)}, {"map", `{"x":["__proto__.polluted"]}`}}, 400, "Invalid object path"},
	} {
		st, body := send(c.fields, nil)
		if st != c.status || !strings.Contains(body, `"name":"BadRequestError","message":"`+c.want) {
			t.Errorf("%s: %d %s", c.name, st, body)
		}
	}
}

func readOnlyCaller() *ir.Caller {
	return &ir.Caller{Kind: ir.TokenCaller, TokenType: ir.TokenReadOnly}
}

// publicWith is the public role granted some actions.
func publicWith(actions ...string) *ir.Caller {
	c := &ir.Caller{Kind: ir.PublicCaller, Actions: map[string]bool{}}
	for _, a := range actions {
		c.Actions[a] = true
	}
	return c
}
