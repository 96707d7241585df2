package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// s3Gateway is a Versity S3 Gateway, an S3-compatible server, run by the test on loopback
// over a temporary folder.
type s3Gateway struct {
	URL    string
	client *minio.Client
}

const s3Key, s3Secret = "quarrye2e", "quarrye2esecret"

// startS3 runs the gateway binary named by QUARRY_TEST_S3_GATEWAY (or versitygw on the PATH;
// .ci/run installs it, see the README) and skips the test when there is none.
func startS3(t *testing.T) *s3Gateway {
	t.Helper()
	bin := os.Getenv("QUARRY_TEST_S3_GATEWAY")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("versitygw"); err != nil {
			t.Skip("no S3-compatible server: set QUARRY_TEST_S3_GATEWAY to a versitygw binary (see the README)")
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "--access", s3Key, "--secret", s3Secret, "--port", addr, "--quiet", "posix", t.TempDir())
	log := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("S3 gateway log:\n%s", log.String())
		}
	})
	g := &s3Gateway{URL: "http://" + addr}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if resp, err := http.Get(g.URL); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the S3 gateway did not start:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	client, err := minio.New(addr, &minio.Options{Creds: credentials.NewStaticV4(s3Key, s3Secret, ""), Region: "us-east-1",
		BucketLookup: minio.BucketLookupPath})
	if err != nil {
		t.Fatal(err)
	}
	g.client = client
	return g
}

// publicBucket creates a bucket anyone may read from (as a bucket serving a site's media is).
func (g *s3Gateway) publicBucket(t *testing.T, name string) {
	t.Helper()
	ctx := context.Background()
	if err := g.client.MakeBucket(ctx, name, minio.MakeBucketOptions{}); err != nil {
		t.Fatal(err)
	}
	policy := fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::%s/*"]}]}`, name)
	if err := g.client.SetBucketPolicy(ctx, name, policy); err != nil {
		t.Fatal(err)
	}
}

// keys lists a bucket's objects, and its unfinished multipart uploads as "(unfinished) key".
func (g *s3Gateway) keys(t *testing.T, bucket string) []string {
	t.Helper()
	ctx := context.Background()
	var keys []string
	for o := range g.client.ListObjects(ctx, bucket, minio.ListObjectsOptions{Recursive: true}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		keys = append(keys, o.Key)
	}
	ups, err := minio.Core{Client: g.client}.ListMultipartUploads(ctx, bucket, "", "", "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range ups.Uploads {
		keys = append(keys, "(unfinished) "+u.Key)
	}
	slices.Sort(keys)
	return keys
}

// object reads an object with the gateway's credentials; ok is false when it is not there.
func (g *s3Gateway) object(t *testing.T, bucket, key string) (body []byte, ctype string, ok bool) {
	t.Helper()
	rc, info, _, err := minio.Core{Client: g.client}.GetObject(context.Background(), bucket, key, minio.GetObjectOptions{})
	if err != nil {
		if minio.ToErrorResponse(err).StatusCode == http.StatusNotFound {
			return nil, "", false
		}
		t.Fatalf("get %s: %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b, info.ContentType, true
}

// fetch reads a public url as a browser would (no credentials).
func fetch(t *testing.T, u string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// noisePNG is an image that does not compress: over 5 MiB at 1500×1300, so that it goes up in
// a multipart upload.
func noisePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	rand.Read(m.Pix)
	for i := 3; i < len(m.Pix); i += 4 {
		m.Pix[i] = 255
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	if b.Len() < 5<<20 {
		t.Fatalf("the noise image has only %d bytes", b.Len())
	}
	return b.Bytes()
}

// s3PluginsJS is the aws-s3 configuration of the provider's README, environment variables
// and all, as a Strapi project's config/plugins.js has it.
const s3PluginsJS = `module.exports = ({ env }) => ({
  i18n: { locales: [{ code: 'fr', name: 'French (fr)' }], defaultLocale: 'en' },
  upload: {
    config: {
      provider: 'aws-s3',
      providerOptions: {
        baseUrl: env('CDN_URL'),
        rootPath: env('CDN_ROOT_PATH'),
        s3Options: {
          credentials: {
            accessKeyId: env('AWS_ACCESS_KEY_ID'),
            secretAccessKey: env('AWS_ACCESS_SECRET'),
          },
          region: env('AWS_REGION'),
          endpoint: env('S3_ENDPOINT'),
          forcePathStyle: env.bool('S3_FORCE_PATH_STYLE', false),
          params: {
            ACL: env('AWS_ACL', 'public-read'),
            signedUrlExpires: env('AWS_SIGNED_URL_EXPIRES', 15 * 60),
            Bucket: env('AWS_BUCKET'),
          },
        },
      },
      actionOptions: { upload: {}, uploadStream: {}, delete: {} },
    },
  },
});
`

// s3App is the blog example with the aws-s3 provider configured in config/plugins.js.
func s3App(t *testing.T) string {
	t.Helper()
	app := copyApp(t, "../examples/blog", `{}`)
	// A plugins.json beside plugins.js would override it.
	if err := os.Remove(filepath.Join(app, "config", "plugins.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "config", "plugins.js"), []byte(s3PluginsJS), 0o644); err != nil {
		t.Fatal(err)
	}
	return app
}

// TestS3Media serves the media library from an S3 bucket with Strapi's aws-s3 provider
// configuration: uploads over REST and GraphQL (formats, a multipart upload), the objects
// and their public urls, a second instance on the same database, replace, delete, files
// Strapi stored in the bucket, and failed writes that leave nothing in the bucket.
func TestS3Media(t *testing.T) {
	gw := startS3(t)
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			bucket := "media-" + be.Name
			gw.publicBucket(t, bucket)
			app := s3App(t)
			env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn",
				"AWS_ACCESS_KEY_ID="+s3Key, "AWS_ACCESS_SECRET="+s3Secret, "AWS_REGION=us-east-1",
				"S3_ENDPOINT="+gw.URL, "S3_FORCE_PATH_STYLE=true", "AWS_BUCKET="+bucket, "CDN_ROOT_PATH=site/")
			token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
			srv := serve(t, env, app, token)
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
			base := gw.URL + "/" + bucket + "/site/"
			objectURL := func(key string) string { return base + key }
			// wantObject checks an object's content type and, when body is not nil, its content,
			// both with the gateway's credentials and through its public url.
			wantObject := func(key, u, ctype string, body []byte) []byte {
				t.Helper()
				got, ct, ok := gw.object(t, bucket, "site/"+key)
				if !ok || ct != ctype || (body != nil && !bytes.Equal(got, body)) {
					t.Fatalf("object site/%s: there %v, type %s, %d bytes", key, ok, ct, len(got))
				}
				st, pub := fetch(t, u)
				if st != 200 || !bytes.Equal(pub, got) {
					t.Fatalf("public url %s: %d, %d bytes", u, st, len(pub))
				}
				return got
			}

			// REST: an image with formats, a text file and a file over 5 MiB (a multipart upload).
			bigPNG := pngOf(t, 1200, 800)
			note := []byte("hello bucket\n")
			blob := make([]byte, 6<<20+17)
			rand.Read(blob)
			st, b := srv.upload(t, "/api/upload", filepart("files", "big.png", "image/png", bigPNG),
				filepart("files", "note.txt", "text/plain", note), filepart("files", "blob.bin", "application/octet-stream", blob),
				field("fileInfo", `[{"alternativeText":"A big one"},{},{}]`))
			must(st, 200, b)
			files, raws := decodeFiles(t, b)
			if len(files) != 3 {
				t.Fatalf("got %s", b)
			}
			big, txt, bin := files[0], files[1], files[2]
			if got := topKeys(t, raws[0]); got != fileKeys {
				t.Fatalf("file keys %s, want %s", got, fileKeys)
			}
			var meta struct {
				ProviderMetadata *json.RawMessage `json:"provider_metadata"`
			}
			json.Unmarshal(raws[0], &meta)
			if big.Provider != "aws-s3" || meta.ProviderMetadata != nil || big.URL != objectURL(big.Hash+".png") || *big.AlternativeText != "A big one" {
				t.Fatalf("big %s", raws[0])
			}
			stored := wantObject(big.Hash+".png", big.URL, "image/png", nil)
			if m, _, err := image.DecodeConfig(bytes.NewReader(stored)); err != nil || m.Width != 1200 || m.Height != 800 {
				t.Fatalf("stored image: %v %+v", err, m)
			}
			if len(big.Formats) != 4 {
				t.Fatalf("formats %v", big.Formats)
			}
			for key, dims := range map[string][2]int{"thumbnail": {234, 156}, "small": {500, 333}, "medium": {750, 500}, "large": {1000, 667}} {
				fo := big.format(t, key)
				if fo.URL != objectURL(key+"_"+big.Hash+".png") || fo.Path != nil {
					t.Fatalf("%s format %+v", key, fo)
				}
				got := wantObject(fo.Hash+".png", fo.URL, "image/png", nil)
				if m, _, err := image.DecodeConfig(bytes.NewReader(got)); err != nil || m.Width != dims[0] || m.Height != dims[1] || int64(len(got)) != fo.SizeInBytes {
					t.Fatalf("%s object: %v %+v, %d bytes", key, err, m, len(got))
				}
			}
			if txt.Provider != "aws-s3" || txt.URL != objectURL(txt.Hash+".txt") || txt.Formats != nil {
				t.Fatalf("note %s", raws[1])
			}
			wantObject(txt.Hash+".txt", txt.URL, "text/plain", note)
			// The url of a multipart upload is the Location the server answers (this server
			// escapes the key's slash).
			if u, _ := url.PathUnescape(bin.URL); u != objectURL(bin.Hash+".bin") {
				t.Fatalf("blob url %s", bin.URL)
			}
			wantObject(bin.Hash+".bin", bin.URL, "application/octet-stream", blob)
			// Nothing is served from the local uploads folder.
			if st, _, _ := srv.send(t, "", "GET", "/uploads/"+txt.Hash+".txt", "", nil); st != 404 {
				t.Fatalf("/uploads answered %d", st)
			}

			// A second instance on the same database and bucket answers the same files.
			other := serve(t, env, app, token)
			st, b = other.do(t, "GET", fmt.Sprintf("/api/upload/files/%d", big.ID), nil)
			must(st, 200, b, `"url":"`+big.URL+`"`, `"provider":"aws-s3"`)

			// GraphQL upload, attached to an entry.
			st, b = srv.do(t, "POST", "/api/writers", []byte(`{"data":{"name":"Ann"}}`))
			must(st, 200, b)
			face := jpegOf(t, 250, 100)
			st, body := srv.gqlMultipart(t, srv.Token, `mutation($file: Upload!) { upload(file: $file, ref: "api::writer.writer", refId: "1", field: "avatar") { data { id attributes { url provider hash formats } } } }`,
				map[string]any{"file": nil}, gqlFile{key: "0", filename: "face.jpg", ctype: "image/jpeg", body: face, paths: []string{"variables.file"}})
			want(t, "GraphQL upload", st, body, 200, `"provider":"aws-s3"`)
			var gq struct {
				Data struct {
					Upload struct {
						Data struct {
							ID         string
							Attributes struct {
								URL, Hash string
								Formats   map[string]struct{ URL string }
							}
						}
					}
				}
			}
			if err := json.Unmarshal([]byte(body), &gq); err != nil {
				t.Fatal(err)
			}
			ga := gq.Data.Upload.Data.Attributes
			if ga.URL != objectURL(ga.Hash+".jpg") || ga.Formats["thumbnail"].URL != objectURL("thumbnail_"+ga.Hash+".jpg") {
				t.Fatalf("GraphQL upload %s", body)
			}
			wantObject(ga.Hash+".jpg", ga.URL, "image/jpeg", nil)
			wantObject("thumbnail_"+ga.Hash+".jpg", ga.Formats["thumbnail"].URL, "image/jpeg", nil)
			st, b = other.do(t, "GET", "/api/writers/1?populate=avatar", nil)
			must(st, 200, b, `"url":"`+ga.URL+`"`)

			// Replace: the new content goes over the same keys; formats the new image does not
			// have go away.
			small := pngOf(t, 300, 200)
			st, b = srv.upload(t, fmt.Sprintf("/api/upload?id=%d", big.ID), filepart("files", "small.png", "image/png", small))
			must(st, 200, b)
			rep := decodeFile(t, b)
			if rep.URL != big.URL || rep.Hash != big.Hash || rep.Name != "small.png" || len(rep.Formats) != 1 || rep.Provider != "aws-s3" {
				t.Fatalf("replaced %s", b)
			}
			got := wantObject(big.Hash+".png", big.URL, "image/png", nil)
			if m, _, err := image.DecodeConfig(bytes.NewReader(got)); err != nil || m.Width != 300 || m.Height != 200 {
				t.Fatalf("replaced object: %v %+v", err, m)
			}
			if th := rep.format(t, "thumbnail"); th.URL != objectURL("thumbnail_"+big.Hash+".png") || th.Width != 234 {
				t.Fatalf("replaced thumbnail %+v", th)
			}
			for _, k := range []string{"small", "medium", "large"} {
				if _, _, ok := gw.object(t, bucket, "site/"+k+"_"+big.Hash+".png"); ok {
					t.Fatalf("the old %s format is still in the bucket", k)
				}
			}

			// Failed writes leave the bucket as it was: an upload attached to an entry that
			// does not exist (found inside the transaction, after the files were uploaded),
			// and an entry created with a file that breaks a unique constraint.
			before := gw.keys(t, bucket)
			st, b = srv.upload(t, "/api/upload", filepart("files", "lost.png", "image/png", pngOf(t, 600, 400)),
				filepart("files", "noise.png", "image/png", noisePNG(t, 1500, 1300)),
				field("ref", "api::writer.writer"), field("refId", "999"), field("field", "avatar"))
			must(st, 400, b, "Invalid refId")
			if after := gw.keys(t, bucket); !slices.Equal(after, before) {
				t.Fatalf("a failed upload left objects: %v, before %v", after, before)
			}
			st, b = srv.do(t, "POST", "/api/articles", []byte(`{"data":{"title":"First","code":"same"}}`))
			must(st, 200, b)
			st, b = srv.multipart(t, "POST", "/api/articles", field("data", `{"title":"Second","code":"same"}`),
				filepart("files.cover", "cover.png", "image/png", pngOf(t, 600, 400)))
			must(st, 400, b, "unique")
			if after := gw.keys(t, bucket); !slices.Equal(after, before) {
				t.Fatalf("a failed create left objects: %v, before %v", after, before)
			}
			// The same create with a free code stores its cover.
			st, b = srv.multipart(t, "POST", "/api/articles?populate=cover", field("data", `{"title":"Second","code":"other"}`),
				filepart("files.cover", "cover.png", "image/png", pngOf(t, 600, 400)))
			must(st, 200, b, `"provider":"aws-s3"`, `"url":"`+base)

			// Delete: the row, the object and its formats go.
			st, b = srv.do(t, "DELETE", fmt.Sprintf("/api/upload/files/%d", big.ID), nil)
			must(st, 200, b)
			for _, k := range []string{big.Hash + ".png", "thumbnail_" + big.Hash + ".png"} {
				if _, _, ok := gw.object(t, bucket, "site/"+k); ok {
					t.Fatalf("site/%s is still in the bucket after delete", k)
				}
			}
			if st, _ := fetch(t, big.URL); st != 404 && st != 403 {
				t.Fatalf("deleted object's url answers %d", st)
			}

			// A Strapi database's files in the bucket: served as stored, and deleted from the
			// bucket like Quarry's own (Strapi records the provider's urls, here through a CDN).
			ctx := context.Background()
			for _, k := range []string{"site/legacy_abc123.png", "site/thumbnail_legacy_abc123.png"} {
				if _, err := gw.client.PutObject(ctx, bucket, k, bytes.NewReader(small), int64(len(small)),
					minio.PutObjectOptions{ContentType: "image/png"}); err != nil {
					t.Fatal(err)
				}
			}
			db := openDB(t, srv)
			formats := `{"thumbnail":{"ext":".png","url":"https://cdn.example.com/site/thumbnail_legacy_abc123.png","hash":"thumbnail_legacy_abc123","mime":"image/png","name":"thumbnail_legacy.png","path":null,"size":1.2,"width":234,"height":156,"sizeInBytes":1200}}`
			now := time.Now().UTC()
			q := `INSERT INTO files (name, hash, ext, mime, size, url, provider, formats, width, height, folder_path, created_at, updated_at) VALUES ('legacy.png', 'legacy_abc123', '.png', 'image/png', 1.5, 'https://cdn.example.com/site/legacy_abc123.png', 'aws-s3', ?, 300, 200, '/', ?, ?)`
			if isPostgres(srv) {
				q = strings.NewReplacer("?, 300", "$1, 300", "'/', ?, ?", "'/', $2, $3").Replace(q)
			}
			if _, err := db.Exec(q, formats, now, now); err != nil {
				t.Fatal(err)
			}
			var legacyID int64
			if err := db.QueryRow(`SELECT id FROM files WHERE hash = 'legacy_abc123'`).Scan(&legacyID); err != nil {
				t.Fatal(err)
			}
			st, b = other.do(t, "GET", fmt.Sprintf("/api/upload/files/%d", legacyID), nil)
			must(st, 200, b, `"url":"https://cdn.example.com/site/legacy_abc123.png"`, `"url":"https://cdn.example.com/site/thumbnail_legacy_abc123.png"`)
			st, b = other.do(t, "DELETE", fmt.Sprintf("/api/upload/files/%d", legacyID), nil)
			must(st, 200, b)
			for _, k := range []string{"site/legacy_abc123.png", "site/thumbnail_legacy_abc123.png"} {
				if _, _, ok := gw.object(t, bucket, k); ok {
					t.Fatalf("%s is still in the bucket after delete", k)
				}
			}
			// No unfinished multipart upload anywhere.
			for _, k := range gw.keys(t, bucket) {
				if strings.HasPrefix(k, "(unfinished)") {
					t.Fatalf("unfinished upload left: %s", k)
				}
			}
		})
	}
}

// TestS3PrivateMedia: with `ACL: 'private'` the files of media attributes are served with
// presigned urls (file and formats), REST and GraphQL alike, as Strapi's upload plugin signs
// them; the upload routes answer the stored urls, and the stored urls do not open the objects.
func TestS3PrivateMedia(t *testing.T) {
	gw := startS3(t)
	be := backends()[0]
	if err := gw.client.MakeBucket(context.Background(), "private", minio.MakeBucketOptions{}); err != nil {
		t.Fatal(err)
	}
	app := s3App(t)
	env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn",
		"AWS_ACCESS_KEY_ID="+s3Key, "AWS_ACCESS_SECRET="+s3Secret, "AWS_REGION=us-east-1",
		"S3_ENDPOINT="+gw.URL, "S3_FORCE_PATH_STYLE=true", "AWS_BUCKET=private", "AWS_ACL=private", "AWS_SIGNED_URL_EXPIRES=120")
	token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
	srv := serve(t, env, app, token)
	st, b := srv.do(t, "POST", "/api/writers", []byte(`{"data":{"name":"Ann"}}`))
	if st != 200 {
		t.Fatalf("create writer: %d %s", st, b)
	}
	face := jpegOf(t, 250, 100)
	st, b = srv.upload(t, "/api/upload", filepart("files", "face.jpg", "image/jpeg", face),
		field("ref", "api::writer.writer"), field("refId", "1"), field("field", "avatar"))
	if st != 200 {
		t.Fatalf("upload: %d %s", st, b)
	}
	files, _ := decodeFiles(t, b)
	f := files[0]
	stored := gw.URL + "/private/" + f.Hash + ".jpg"
	if f.URL != stored {
		t.Fatalf("the upload answers %s, want the stored url %s", f.URL, stored)
	}
	if st, _ := fetch(t, stored); st != 403 {
		t.Fatalf("the private object answered %d without a signature", st)
	}
	object, _, _ := gw.object(t, "private", f.Hash+".jpg")
	checkSigned := func(what, u, key string, want []byte) {
		t.Helper()
		pu, err := url.Parse(u)
		if err != nil || pu.Path != "/private/"+key || pu.Query().Get("X-Amz-Expires") != "120" || pu.Query().Get("X-Amz-Signature") == "" {
			t.Fatalf("%s: not a signed url of %s: %s", what, key, u)
		}
		st, got := fetch(t, u)
		if st != 200 || (want != nil && !bytes.Equal(got, want)) {
			t.Fatalf("%s: the signed url answered %d, %d bytes", what, st, len(got))
		}
	}

	// REST: the populated avatar and its thumbnail.
	st, b = srv.do(t, "GET", "/api/writers/1?populate=avatar", nil)
	if st != 200 {
		t.Fatalf("%d %s", st, b)
	}
	var w struct {
		Data struct {
			Attributes struct {
				Avatar struct {
					Data struct {
						Attributes struct {
							URL     string
							Formats map[string]map[string]any
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	av := w.Data.Attributes.Avatar.Data.Attributes
	checkSigned("REST avatar", av.URL, f.Hash+".jpg", object)
	th := av.Formats["thumbnail"]
	checkSigned("REST thumbnail", fmt.Sprint(th["url"]), "thumbnail_"+f.Hash+".jpg", nil)
	if th["isUrlSigned"] != true {
		t.Fatalf("thumbnail %v", th)
	}
	// Read without its provider, a file is not signed (as in Strapi).
	st, b = srv.do(t, "GET", "/api/writers/1?populate[avatar][fields][0]=url", nil)
	if st != 200 || !strings.Contains(string(b), `"url":"`+stored+`"`) {
		t.Fatalf("fields=url: %d %s", st, b)
	}
	// The upload routes answer the stored url.
	st, b = srv.do(t, "GET", fmt.Sprintf("/api/upload/files/%d", f.ID), nil)
	if st != 200 || !strings.Contains(string(b), `"url":"`+stored+`"`) {
		t.Fatalf("files route: %d %s", st, b)
	}

	// GraphQL.
	body := srv.gql(t, `{ writer(id: 1) { data { attributes { avatar { data { attributes { url formats } } } } } } }`, nil)
	var g struct {
		Data struct {
			Writer struct {
				Data struct {
					Attributes struct {
						Avatar struct {
							Data struct {
								Attributes struct {
									URL     string
									Formats map[string]map[string]any
								}
							}
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &g); err != nil {
		t.Fatal(err)
	}
	ga := g.Data.Writer.Data.Attributes.Avatar.Data.Attributes
	checkSigned("GraphQL avatar", ga.URL, f.Hash+".jpg", object)
	checkSigned("GraphQL thumbnail", fmt.Sprint(ga.Formats["thumbnail"]["url"]), "thumbnail_"+f.Hash+".jpg", nil)
}
