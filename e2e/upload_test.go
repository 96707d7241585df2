package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// part is one multipart part: a field (no filename) or a file.
type part struct {
	name, filename, ctype string
	body                  []byte
}

func filepart(name, filename, ctype string, body []byte) part {
	return part{name: name, filename: filename, ctype: ctype, body: body}
}

func field(name, value string) part { return part{name: name, body: []byte(value)} }

func multipartBody(t *testing.T, parts ...part) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		if p.filename != "" {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, p.name, p.filename))
			h.Set("Content-Type", p.ctype)
		} else {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, p.name))
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(p.body)
	}
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

// send sends a raw body with a content type, as token (empty: public).
func (s *server) send(t *testing.T, token, method, path, ctype string, body []byte) (int, []byte, http.Header) {
	t.Helper()
	return s.sendHeader(t, token, method, path, ctype, body, nil)
}

// noRedirects answers a redirect as it is: the steps compare it (its status, its Location).
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// sendHeader is send with headers of the step's own (a Cookie).
func (s *server) sendHeader(t *testing.T, token, method, path, ctype string, body []byte, extra http.Header) (int, []byte, http.Header) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range extra {
		req.Header[k] = v
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b, resp.Header
}

func (s *server) upload(t *testing.T, path string, parts ...part) (int, []byte) {
	t.Helper()
	return s.multipart(t, "POST", path, parts...)
}

func (s *server) multipart(t *testing.T, method, path string, parts ...part) (int, []byte) {
	t.Helper()
	body, ct := multipartBody(t, parts...)
	st, b, _ := s.send(t, s.Token, method, path, ct, body)
	return st, b
}

func gradient(w, h int) image.Image {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x ^ y) & 0xff), 255})
		}
	}
	return m
}

func pngOf(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, gradient(w, h)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegOf(t *testing.T, w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, gradient(w, h), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// copyApp copies an app folder's src and config into a temporary folder, so uploads land
// there, and adds the given plugin configuration to config/plugins.json.
func copyApp(t *testing.T, from, plugins string) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"src", "config"} {
		root := filepath.Join(from, sub)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(from, p)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dir, rel), 0o755)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	// Merge the test's plugin configuration into the app's.
	conf := map[string]json.RawMessage{}
	if b, err := os.ReadFile(filepath.Join(dir, "config", "plugins.json")); err == nil {
		if err := json.Unmarshal(b, &conf); err != nil {
			t.Fatal(err)
		}
	}
	var extra map[string]json.RawMessage
	if err := json.Unmarshal([]byte(plugins), &extra); err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		conf[k] = v
	}
	b, _ := json.Marshal(conf)
	os.MkdirAll(filepath.Join(dir, "config"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "config", "plugins.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fileObj is a file as the upload API answers it, with its key order.
type fileObj struct {
	ID              int64                      `json:"id"`
	Name            string                     `json:"name"`
	AlternativeText *string                    `json:"alternativeText"`
	Caption         *string                    `json:"caption"`
	Width           *int                       `json:"width"`
	Height          *int                       `json:"height"`
	Formats         map[string]json.RawMessage `json:"formats"`
	Hash            string                     `json:"hash"`
	Ext             string                     `json:"ext"`
	Mime            string                     `json:"mime"`
	Size            float64                    `json:"size"`
	URL             string                     `json:"url"`
	PreviewURL      *string                    `json:"previewUrl"`
	Provider        string                     `json:"provider"`
	Related         []map[string]any           `json:"related"`
}

type formatObj struct {
	Ext, URL, Hash, Mime, Name string
	Path                       *string
	Size                       float64
	Width, Height              int
	SizeInBytes                int64
}

func (f fileObj) format(t *testing.T, key string) formatObj {
	t.Helper()
	raw, ok := f.Formats[key]
	if !ok {
		t.Fatalf("file %d has no %s format: %v", f.ID, key, f.Formats)
	}
	var fo formatObj
	if err := json.Unmarshal(raw, &fo); err != nil {
		t.Fatal(err)
	}
	return fo
}

// Strapi's key order of a file object and of a format.
var (
	fileKeys   = `"id","name","alternativeText","caption","width","height","formats","hash","ext","mime","size","url","previewUrl","provider","provider_metadata","createdAt","updatedAt"`
	formatKeys = `"ext","url","hash","mime","name","path","size","width","height","sizeInBytes"`
)

// topKeys lists the keys of a JSON object's first level, in order.
func topKeys(t *testing.T, raw []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, fmt.Sprintf("%q", k))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return strings.Join(keys, ",")
}

func decodeFiles(t *testing.T, b []byte) ([]fileObj, []json.RawMessage) {
	t.Helper()
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		t.Fatalf("not an array: %s", b)
	}
	out := make([]fileObj, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out, raws
}

func decodeFile(t *testing.T, b []byte) fileObj {
	t.Helper()
	var f fileObj
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("not a file: %s", b)
	}
	return f
}

// TestUpload covers the media library end to end on every database: uploads with
// information and formats, attaching to entries, populate, the files routes, replace,
// update, delete, limits and bad input.
func TestUpload(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyApp(t, "../examples/blog", `{"upload":{"config":{"sizeLimit":300000}}}`)
			srv := start(t, be, app)
			uploads := filepath.Join(app, "public", "uploads")
			readOnly := strings.TrimSpace(quarry(t, srv.Env, "tokens", "create", "--app", app, "--name", "ro", "--type", "read-only"))
			must := func(st, want int, b []byte, contains ...string) {
				t.Helper()
				if st != want {
					t.Fatalf("got %d %s, want %d", st, b, want)
				}
				for _, c := range contains {
					if !strings.Contains(string(b), c) {
						t.Fatalf("got %s, want it to contain %s", b, c)
					}
				}
			}
			getFile := func(url string) (int, []byte, http.Header) {
				return srv.send(t, "", "GET", url, "", nil)
			}
			imageSize := func(url string, wantFormat string) (int, int) {
				t.Helper()
				st, b, h := getFile(url)
				must(st, 200, nil)
				m, format, err := image.DecodeConfig(bytes.NewReader(b))
				if err != nil || format != wantFormat {
					t.Fatalf("%s: %v %s (content type %s)", url, err, format, h.Get("Content-Type"))
				}
				return m.Width, m.Height
			}

			// One PNG larger than every breakpoint: all four formats.
			bigPNG := pngOf(t, 1200, 800)
			st, b := srv.upload(t, "/api/upload", fileparts("files", "big.png", "image/png", bigPNG)...)
			must(st, 200, b)
			files, raws := decodeFiles(t, b)
			if len(files) != 1 {
				t.Fatalf("got %s", b)
			}
			big := files[0]
			if got := topKeys(t, raws[0]); got != fileKeys {
				t.Fatalf("file keys %s, want %s", got, fileKeys)
			}
			if big.Name != "big.png" || *big.Width != 1200 || *big.Height != 800 || big.Ext != ".png" || big.Mime != "image/png" ||
				big.Provider != "local" || big.PreviewURL != nil || big.AlternativeText != nil || big.Caption != nil ||
				!regexp.MustCompile(`^big_[0-9a-f]{10}$`).MatchString(big.Hash) || big.URL != "/uploads/"+big.Hash+".png" || big.Size <= 0 {
				t.Fatalf("unexpected file %s", b)
			}
			if len(big.Formats) != 4 {
				t.Fatalf("formats %v", big.Formats)
			}
			for key, dims := range map[string][2]int{"thumbnail": {234, 156}, "small": {500, 333}, "medium": {750, 500}, "large": {1000, 667}} {
				fo := big.format(t, key)
				if got := topKeys(t, big.Formats[key]); got != formatKeys {
					t.Fatalf("format keys %s", got)
				}
				if fo.Width != dims[0] || fo.Height != dims[1] || fo.Hash != key+"_"+big.Hash || fo.URL != "/uploads/"+fo.Hash+".png" ||
					fo.Name != key+"_big.png" || fo.Ext != ".png" || fo.Mime != "image/png" || fo.Path != nil || fo.SizeInBytes <= 0 ||
					fo.Size != float64(int64(float64(fo.SizeInBytes)/1000*100+0.5))/100 {
					t.Fatalf("%s format %+v", key, fo)
				}
				if w, h := imageSize(fo.URL, "png"); w != dims[0] || h != dims[1] {
					t.Fatalf("%s is %d×%d", fo.URL, w, h)
				}
			}
			if w, h := imageSize(big.URL, "png"); w != 1200 || h != 800 {
				t.Fatalf("stored image %d×%d", w, h)
			}
			_, _, hdr := getFile(big.URL)
			if hdr.Get("Content-Type") != "image/png" || hdr.Get("Cache-Control") != "max-age=0" || hdr.Get("Last-Modified") == "" ||
				hdr.Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("headers %v", hdr)
			}
			// Range requests, as koa-range serves them.
			st, part, hdr := srv.sendRange(t, big.URL, "bytes=0-9")
			if st != 206 || len(part) != 10 || !strings.HasPrefix(hdr.Get("Content-Range"), "bytes 0-9/") {
				t.Fatalf("range: %d %v", st, hdr)
			}
			st, b, _ = getFile("/uploads/nope.png")
			must(st, 404, b, `"name":"NotFoundError"`)

			// Several files with fileInfo: a text file and a JPEG below the large breakpoints.
			photo := jpegOf(t, 600, 400)
			st, b = srv.upload(t, "/api/upload",
				fileparts("files", "note.txt", "text/plain", []byte("hello world\n"))[0],
				fileparts("files", "photo.jpg", "image/jpeg", photo)[0],
				field("fileInfo", `[{"name":"My Note.txt","caption":"cap1"},{"alternativeText":"alt2","name":"tiny"}]`))
			must(st, 200, b)
			files, _ = decodeFiles(t, b)
			if len(files) != 2 {
				t.Fatalf("got %s", b)
			}
			note, tiny := files[0], files[1]
			if note.Name != "My Note.txt" || *note.Caption != "cap1" || note.AlternativeText != nil || note.Width != nil ||
				note.Formats != nil || note.Mime != "text/plain" || note.Ext != ".txt" || note.Size != 0.01 ||
				!regexp.MustCompile(`^My_Note_[0-9a-f]{10}$`).MatchString(note.Hash) {
				t.Fatalf("note %s", b)
			}
			if tiny.Name != "tiny" || *tiny.AlternativeText != "alt2" || tiny.Caption != nil || *tiny.Width != 600 || *tiny.Height != 400 ||
				tiny.Mime != "image/jpeg" || tiny.Ext != ".jpg" || !strings.HasPrefix(tiny.Hash, "tiny_") || len(tiny.Formats) != 2 {
				t.Fatalf("tiny %s", b)
			}
			if fo := tiny.format(t, "small"); fo.Width != 500 || fo.Height != 333 || fo.Name != "small_tiny" {
				t.Fatalf("small %+v", fo)
			}
			if fo := tiny.format(t, "thumbnail"); fo.Width != 234 || fo.Height != 156 {
				t.Fatalf("thumbnail %+v", fo)
			}
			if w, h := imageSize(tiny.format(t, "small").URL, "jpeg"); w != 500 || h != 333 {
				t.Fatalf("small is %d×%d", w, h)
			}
			st, b, _ = getFile(note.URL)
			if st != 200 || string(b) != "hello world\n" {
				t.Fatalf("note content %d %q", st, b)
			}

			// Attach an upload to an entry with ref/refId/field; populate it.
			st, b = srv.do(t, "POST", "/api/writers", []byte(`{"data":{"name":"Ann"}}`))
			must(st, 200, b)
			var created struct {
				Data struct{ ID int64 } `json:"data"`
			}
			json.Unmarshal(b, &created)
			writer := created.Data.ID
			st, b = srv.upload(t, "/api/upload", fileparts("files", "face.jpg", "image/jpeg", jpegOf(t, 250, 100))[0],
				field("ref", "api::writer.writer"), field("refId", fmt.Sprint(writer)), field("field", "avatar"))
			must(st, 200, b)
			files, _ = decodeFiles(t, b)
			face := files[0]
			if fo := face.format(t, "thumbnail"); fo.Width != 245 || fo.Height != 98 || len(face.Formats) != 1 {
				t.Fatalf("face formats %s", b)
			}
			st, b = srv.do(t, "GET", fmt.Sprintf("/api/writers/%d?populate=avatar", writer), nil)
			must(st, 200, b, fmt.Sprintf(`"avatar":{"data":{"id":%d,"attributes":{"name":"face.jpg","alternativeText":null,"caption":null,"width":250,"height":100,"formats":{"thumbnail":{"ext":".jpg","url":"/uploads/thumbnail_%s.jpg","hash":"thumbnail_%s","mime":"image/jpeg","name":"thumbnail_face.jpg","path":null,`, face.ID, face.Hash, face.Hash))
			var populated struct {
				Data struct {
					Attributes struct {
						Avatar struct {
							Data struct {
								Attributes json.RawMessage `json:"attributes"`
							} `json:"data"`
						} `json:"avatar"`
					} `json:"attributes"`
				} `json:"data"`
			}
			json.Unmarshal(b, &populated)
			if got, want := topKeys(t, populated.Data.Attributes.Avatar.Data.Attributes), strings.TrimPrefix(fileKeys, `"id",`); got != want {
				t.Fatalf("media attribute keys %s, want %s", got, want)
			}

			// Media fields written by id (components too), populated with populate=*, by name
			// and with nested fields.
			body := fmt.Sprintf(`{"data":{"title":"With media","publishedAt":"2024-01-01T00:00:00.000Z","cover":%d,"gallery":[%d,%d],"seo":{"metaTitle":"T","image":%d}}}`,
				tiny.ID, big.ID, tiny.ID, big.ID)
			st, b = srv.do(t, "POST", "/api/articles", []byte(body))
			must(st, 200, b)
			json.Unmarshal(b, &created)
			article := created.Data.ID
			st, b = srv.do(t, "GET", fmt.Sprintf("/api/articles/%d?populate=*", article), nil)
			must(st, 200, b, fmt.Sprintf(`"cover":{"data":{"id":%d,"attributes":{"name":"tiny"`, tiny.ID),
				fmt.Sprintf(`"gallery":{"data":[{"id":%d,"attributes":{"name":"big.png"`, big.ID))
			if !regexp.MustCompile(fmt.Sprintf(`"gallery":\{"data":\[\{"id":%d,.*\},\{"id":%d,"attributes"`, big.ID, tiny.ID)).Match(b) {
				t.Fatalf("gallery order: %s", b)
			}
			st, b = srv.do(t, "GET", fmt.Sprintf("/api/articles/%d?populate[cover][fields][0]=name&populate[cover][fields][1]=url&populate[seo][populate][image][fields][0]=width", article), nil)
			must(st, 200, b, fmt.Sprintf(`"cover":{"data":{"id":%d,"attributes":{"name":"tiny","url":"%s"}}}`, tiny.ID, tiny.URL),
				fmt.Sprintf(`"image":{"data":{"id":%d,"attributes":{"width":1200}}}`, big.ID))

			// allowedTypes: cover takes images only, by id and through ref/field.
			st, b = srv.do(t, "PUT", fmt.Sprintf("/api/articles/%d", article), []byte(fmt.Sprintf(`{"data":{"cover":%d}}`, note.ID)))
			must(st, 400, b, `"name":"ValidationError"`, fmt.Sprintf(`cover only accepts images, file %d is text/plain`, note.ID), `"path":["cover"]`)
			st, b = srv.do(t, "PUT", fmt.Sprintf("/api/articles/%d", article), []byte(fmt.Sprintf(`{"data":{"seo":{"metaTitle":"T","image":%d}}}`, note.ID)))
			must(st, 400, b, `"path":["seo","image"]`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "doc.txt", "text/plain", []byte("text"))[0],
				field("ref", "api::writer.writer"), field("refId", fmt.Sprint(writer)), field("field", "avatar"))
			must(st, 400, b, `avatar only accepts images`)

			// The files routes: list with filters, sort, fields, start/limit, populate related.
			st, b = srv.do(t, "GET", "/api/upload/files", nil)
			must(st, 200, b)
			all, _ := decodeFiles(t, b)
			if len(all) != 4 {
				t.Fatalf("files: %s", b)
			}
			st, b = srv.do(t, "GET", "/api/upload/files?filters[mime][$contains]=image&sort=id:desc&fields[0]=name", nil)
			must(st, 200, b, fmt.Sprintf(`[{"id":%d,"name":"face.jpg"},{"id":%d,"name":"tiny"},{"id":%d,"name":"big.png"}]`, face.ID, tiny.ID, big.ID))
			st, b = srv.do(t, "GET", "/api/upload/files?sort=id&start=1&limit=2&fields[0]=name", nil)
			must(st, 200, b, fmt.Sprintf(`[{"id":%d,"name":"My Note.txt"},{"id":%d,"name":"tiny"}]`, note.ID, tiny.ID))
			st, b = srv.do(t, "GET", fmt.Sprintf("/api/upload/files?filters[id]=%d&populate=related", face.ID), nil)
			must(st, 200, b, fmt.Sprintf(`"related":[{"__type":"api::writer.writer","id":%d,"name":"Ann","bio":null,"createdAt":`, writer))
			st, b = srv.do(t, "GET", "/api/upload/files?filters[folderPath]=/1", nil)
			must(st, 400, b, `Invalid parameter folderPath`)
			st, b = srv.do(t, "GET", fmt.Sprintf("/api/upload/files/%d", note.ID), nil)
			must(st, 200, b, fmt.Sprintf(`{"id":%d,"name":"My Note.txt","alternativeText":null,"caption":"cap1","width":null,"height":null,"formats":null,"hash":"%s"`, note.ID, note.Hash))
			st, b = srv.do(t, "GET", "/api/upload/files/9999", nil)
			must(st, 404, b, `{"data":null,"error":{"status":404,"name":"NotFoundError","message":"file.notFound","details":{}}}`)

			// Replace: hash, ext and url stay; dimensions and formats follow the new content;
			// formats the new image does not have are removed.
			st, b = srv.upload(t, fmt.Sprintf("/api/upload?id=%d", big.ID), fileparts("files", "photo.jpg", "image/jpeg", photo)[0],
				field("fileInfo", `{"caption":"replaced"}`))
			must(st, 200, b)
			rep := decodeFile(t, b)
			if rep.ID != big.ID || rep.Hash != big.Hash || rep.URL != big.URL || rep.Ext != ".png" || rep.Name != "photo.jpg" ||
				*rep.Width != 600 || *rep.Height != 400 || rep.Mime != "image/jpeg" || *rep.Caption != "replaced" || len(rep.Formats) != 2 {
				t.Fatalf("replaced %s", b)
			}
			if fo := rep.format(t, "small"); fo.URL != "/uploads/small_"+big.Hash+".png" || fo.Mime != "image/jpeg" || fo.Width != 500 {
				t.Fatalf("replaced small %+v", fo)
			}
			if w, h := imageSize(big.URL, "jpeg"); w != 600 || h != 400 {
				t.Fatalf("replaced content %d×%d", w, h)
			}
			for _, gone := range []string{"large", "medium"} {
				st, _, _ := getFile("/uploads/" + gone + "_" + big.Hash + ".png")
				if st != 404 {
					t.Fatalf("%s format of the replaced file is still served", gone)
				}
			}

			// Update the information only.
			st, b = srv.upload(t, fmt.Sprintf("/api/upload?id=%d", note.ID), field("fileInfo", `{"name":"renamed.txt","alternativeText":"alt"}`))
			must(st, 200, b, fmt.Sprintf(`{"id":%d,"name":"renamed.txt","alternativeText":"alt","caption":"cap1",`, note.ID))
			st, b = srv.upload(t, "/api/upload?id=9999", field("fileInfo", `{"name":"x"}`))
			must(st, 404, b, `"message":"Entity not found"`)
			st, b = srv.upload(t, fmt.Sprintf("/api/upload?id=%d", note.ID), fileparts("files", "a.txt", "text/plain", []byte("a"))[0],
				fileparts("files", "b.txt", "text/plain", []byte("b"))[0])
			must(st, 400, b, `Cannot replace a file with multiple ones`)

			// Delete: the row, its links and its stored files go.
			st, b = srv.do(t, "DELETE", fmt.Sprintf("/api/upload/files/%d", face.ID), nil)
			must(st, 200, b, fmt.Sprintf(`{"id":%d,"name":"face.jpg"`, face.ID))
			st, b = srv.do(t, "DELETE", fmt.Sprintf("/api/upload/files/%d", face.ID), nil)
			must(st, 404, b, `file.notFound`)
			for _, u := range []string{face.URL, face.format(t, "thumbnail").URL} {
				if st, _, _ := getFile(u); st != 404 {
					t.Fatalf("%s still served after delete", u)
				}
			}
			st, b = srv.do(t, "GET", fmt.Sprintf("/api/writers/%d?populate=avatar", writer), nil)
			must(st, 200, b, `"avatar":{"data":null}`)
			st, b = srv.do(t, "DELETE", fmt.Sprintf("/api/upload/files/%d", tiny.ID), nil)
			must(st, 200, b)
			st, b = srv.do(t, "GET", fmt.Sprintf("/api/articles/%d?populate[0]=cover&populate[1]=gallery&fields[0]=title", article), nil)
			must(st, 200, b, fmt.Sprintf(`"cover":{"data":null},"gallery":{"data":[{"id":%d,`, big.ID))

			// Limits and bad input leave no file and no row behind.
			countFiles := func() int {
				_, b := srv.do(t, "GET", "/api/upload/files?fields[0]=name", nil)
				fs, _ := decodeFiles(t, b)
				return len(fs)
			}
			listDir := func() []string { return settledDir(t, uploads) }
			rows, disk := countFiles(), strings.Join(listDir(), ",")
			st, b = srv.upload(t, "/api/upload", field("ref", "api::writer.writer"))
			must(st, 400, b, `{"data":null,"error":{"status":400,"name":"ValidationError","message":"Files are empty","details":{}}}`)
			st, b, _ = srv.send(t, srv.Token, "POST", "/api/upload", "application/json", []byte(`{"a":1}`))
			must(st, 400, b, `Files are empty`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "empty.txt", "text/plain", nil)...)
			must(st, 400, b, `Files are empty`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "huge.bin", "application/octet-stream", bytes.Repeat([]byte{7}, 300_010))...)
			must(st, 413, b, `{"data":null,"error":{"status":413,"name":"PayloadTooLargeError","message":"huge.bin exceeds size limit of 300 KB.","details":{}}}`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "fake.png", "image/png", []byte("this is not a png"))...)
			must(st, 400, b, `does not match its type image/png`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "broken.png", "image/png", bigPNG[:len(bigPNG)/2])...)
			must(st, 400, b, `File is not a valid image`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "a.txt", "text/plain", []byte("a"))[0],
				field("ref", "api::nope.nope"), field("refId", "1"), field("field", "avatar"))
			must(st, 400, b, `Invalid ref`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "a.jpg", "image/jpeg", photo)[0],
				field("ref", "api::writer.writer"), field("refId", "9999"), field("field", "avatar"))
			must(st, 400, b, `Invalid refId`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "a.jpg", "image/jpeg", photo)[0],
				field("ref", "api::writer.writer"), field("refId", fmt.Sprint(writer)), field("field", "name"))
			must(st, 400, b, `Invalid field`)
			st, b = srv.upload(t, "/api/upload", fileparts("files", "a.txt", "text/plain", []byte("a"))[0], field("fileInfo", `{bad`))
			must(st, 400, b, "fileInfo must be a `object` type")
			full, ct := multipartBody(t, fileparts("files", "cut.jpg", "image/jpeg", photo)...)
			st, b, _ = srv.send(t, srv.Token, "POST", "/api/upload", ct, full[:len(full)-200])
			must(st, 400, b, `Invalid multipart body`)
			if got := countFiles(); got != rows {
				t.Fatalf("failed uploads left %d rows", got-rows)
			}
			if got := strings.Join(listDir(), ","); got != disk {
				t.Fatalf("failed uploads left files behind:\n%s\nwas\n%s", got, disk)
			}

			// Permissions: read-only tokens may list but not upload; the public role has none.
			st, b, _ = srv.send(t, readOnly, "GET", "/api/upload/files", "", nil)
			must(st, 200, b)
			body2, ct2 := multipartBody(t, fileparts("files", "a.txt", "text/plain", []byte("a"))...)
			st, b, _ = srv.send(t, readOnly, "POST", "/api/upload", ct2, body2)
			must(st, 403, b, `"name":"ForbiddenError"`)
			st, b, _ = srv.send(t, readOnly, "DELETE", fmt.Sprintf("/api/upload/files/%d", note.ID), "", nil)
			must(st, 403, b, `"name":"ForbiddenError"`)
			st, b, _ = srv.send(t, "", "GET", "/api/upload/files", "", nil)
			must(st, 403, b, `"name":"ForbiddenError"`)
			st, b, _ = srv.send(t, srv.Token, "PUT", "/api/upload/files/1", "", nil)
			must(st, 405, b, "Method Not Allowed")
		})
	}
}

func fileparts(name, filename, ctype string, body []byte) []part {
	return []part{filepart(name, filename, ctype, body)}
}

func (s *server) sendRange(t *testing.T, path, rng string) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest("GET", s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Range", rng)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header
}

// TestUploadInline covers files sent with an entry: multipart create and update with the
// entry in `data` and files under `files.<attribute path>`, components included.
func TestUploadInline(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyApp(t, "../examples/blog", `{}`)
			srv := start(t, be, app)
			uploads := filepath.Join(app, "public", "uploads")
			must := func(st, want int, b []byte, contains ...string) {
				t.Helper()
				if st != want {
					t.Fatalf("got %d %s, want %d", st, b, want)
				}
				for _, c := range contains {
					if !strings.Contains(string(b), c) {
						t.Fatalf("got %s, want it to contain %s", b, c)
					}
				}
			}
			listDir := func() string { return strings.Join(settledDir(t, uploads), ",") }
			pop := "populate[cover][fields][0]=name&populate[gallery][fields][0]=name&populate[seo][populate][image][fields][0]=name&populate[blocks][populate][image][fields][0]=name"
			photo := jpegOf(t, 300, 200)
			st, b := srv.upload(t, "/api/articles?"+pop,
				field("data", `{"title":"Inline","publishedAt":"2024-01-01T00:00:00.000Z","seo":{"metaTitle":"s"},"blocks":[{"__component":"shared.quote","text":"q"},{"__component":"shared.seo","metaTitle":"b"}]}`),
				filepart("files.cover", "cover.jpg", "image/jpeg", photo),
				filepart("files.gallery", "g1.png", "image/png", pngOf(t, 50, 40)),
				filepart("files.gallery", "g2.jpg", "image/jpeg", photo),
				filepart("files.seo.image", "seo.jpg", "image/jpeg", photo),
				filepart("files.blocks.1.image", "block.png", "image/png", pngOf(t, 20, 20)))
			must(st, 200, b, `"cover":{"data":{"id":1,"attributes":{"name":"cover.jpg"}}}`,
				`"gallery":{"data":[{"id":2,"attributes":{"name":"g1.png"}},{"id":3,"attributes":{"name":"g2.jpg"}}]}`,
				`"image":{"data":{"id":4,"attributes":{"name":"seo.jpg"}}}`,
				`{"id":1,"__component":"shared.quote","text":"q","by":null}`, `"metaTitle":"b","metaDescription":null,"kind":null,"image":{"data":{"id":5,"attributes":{"name":"block.png"}}}}`)
			var created struct {
				Data struct{ ID int64 } `json:"data"`
			}
			json.Unmarshal(b, &created)
			st, b = srv.do(t, "GET", "/api/upload/files/1", nil)
			must(st, 200, b, `"name":"cover.jpg"`)
			var f fileObj
			json.Unmarshal(b, &f)
			if st, _, _ := srv.send(t, "", "GET", f.URL, "", nil); st != 200 {
				t.Fatalf("inline upload not served: %d", st)
			}

			// An update adds files to a multiple media attribute and replaces a single one.
			st, b = srv.multipart(t, "PUT", fmt.Sprintf("/api/articles/%d?%s", created.Data.ID, pop),
				field("data", `{"summary":"more"}`),
				filepart("files.gallery", "g3.jpg", "image/jpeg", photo),
				filepart("files.cover", "cover2.jpg", "image/jpeg", photo))
			must(st, 200, b, `"cover":{"data":{"id":7,"attributes":{"name":"cover2.jpg"}}}`,
				`"gallery":{"data":[{"id":2,"attributes":{"name":"g1.png"}},{"id":3,"attributes":{"name":"g2.jpg"}},{"id":6,"attributes":{"name":"g3.jpg"}}]}`)

			// Failures leave no file and no row.
			before := listDir()
			st, b = srv.upload(t, "/api/articles", field("data", `{"title":"ab"}`), filepart("files.cover", "c.jpg", "image/jpeg", photo))
			must(st, 400, b, `title must be at least 3 characters`)
			st, b = srv.upload(t, "/api/articles", field("data", `{"title":"abcd"}`), filepart("files.cover", "c.txt", "text/plain", []byte("text")))
			must(st, 400, b, `cover only accepts images`)
			st, b = srv.upload(t, "/api/articles", field("data", `{"title":"abcd"}`), filepart("files.nope", "c.jpg", "image/jpeg", photo))
			must(st, 400, b, `Invalid file key files.nope`)
			st, b = srv.upload(t, "/api/articles", field("data", `{"title":"abcd"}`), filepart("files.seo.image", "c.jpg", "image/jpeg", photo))
			must(st, 400, b, `Invalid file key files.seo.image`)
			st, b = srv.upload(t, "/api/articles", field("data", `{"title":"abcd"}`), filepart("cover", "c.jpg", "image/jpeg", photo))
			must(st, 400, b, `"name":"BadRequestError"`, `prefixing them with the 'files'`)
			st, b = srv.upload(t, "/api/articles", filepart("files.cover", "c.jpg", "image/jpeg", photo))
			must(st, 400, b, `you need to provide your data in a JSON 'data' field.`)
			st, b = srv.upload(t, "/api/articles", field("data", `{bad`))
			must(st, 400, b, `Invalid 'data' field. 'data' should be a valid JSON.`)
			if after := listDir(); after != before {
				t.Fatalf("failed writes left files:\n%s\nwas\n%s", after, before)
			}
			st, b = srv.do(t, "GET", "/api/upload/files?fields[0]=name", nil)
			if n := strings.Count(string(b), `"name"`); st != 200 || n != 7 {
				t.Fatalf("files after failures: %d %s", st, b)
			}
		})
	}
}

// settledDir lists the uploads folder once the temporary files of finished requests are
// gone: they are removed when each request's context ends, just after its response.
func settledDir(t *testing.T, dir string) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		entries, _ := os.ReadDir(dir)
		var names []string
		busy := false
		for _, e := range entries {
			// Temporary files of a request whose answer has gone: the upload and the image
			// formats derived from it, removed once the request's handler returns.
			if strings.HasPrefix(e.Name(), ".quarry-upload-") || strings.HasPrefix(e.Name(), ".quarry-format-") {
				busy = true
			}
			names = append(names, e.Name())
		}
		if !busy || time.Now().After(deadline) {
			return names
		}
		time.Sleep(20 * time.Millisecond)
	}
}
