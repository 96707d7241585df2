package upload

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/quarrycms/quarry/ir/apierror"
)

// The provider's configuration rules, as @strapi/provider-upload-aws-s3 4.26.2 applies them.
func TestParseS3Config(t *testing.T) {
	c, err := ParseConfig("/app", []byte(`{"upload":{"config":{"provider":"aws-s3","providerOptions":{
		"baseUrl":"https://cdn.example.com","rootPath":"media//",
		"s3Options":{"credentials":{"accessKeyId":"AK","secretAccessKey":"SK"},"region":"eu-west-1",
			"endpoint":"http://127.0.0.1:9000","forcePathStyle":"true","apiVersion":"latest",
			"params":{"Bucket":"b","ACL":"private","signedUrlExpires":"60"}}},
		"actionOptions":{"upload":{},"uploadStream":{"CacheControl":"max-age=60"},"delete":{}}}}}`), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	s := c.S3
	if c.Provider != "aws-s3" || s == nil || s.BaseURL != "https://cdn.example.com" || s.KeyPrefix != "media/" || s.AccessKeyID != "AK" ||
		s.SecretAccessKey != "SK" || s.Region != "eu-west-1" || s.Endpoint != "http://127.0.0.1:9000" || !s.ForcePathStyle ||
		s.Bucket != "b" || !s.Private() || s.SignedURLExpires != time.Minute || s.Put.CacheControl != "max-age=60" ||
		strings.Join(s.Ignored, ",") != "apiVersion" {
		t.Fatalf("got %+v %+v", c, s)
	}

	// The deprecated top-level options: they win over s3Options (params whole), top-level
	// keys give the credentials, and ACL defaults to public-read.
	c, err = ParseConfig("/app", []byte(`{"upload":{"config":{"provider":"@strapi/provider-upload-aws-s3","providerOptions":{
		"accessKeyId":"TOP","secretAccessKey":"TOPS","region":"us-east-1","params":{"Bucket":"top"},
		"s3Options":{"credentials":{"accessKeyId":"AK","secretAccessKey":"SK"},"region":"eu-west-1","params":{"Bucket":"b","ACL":"private"}}}}}}`),
		func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if s := c.S3; c.Provider != "@strapi/provider-upload-aws-s3" || s.AccessKeyID != "TOP" || s.Region != "us-east-1" || s.Bucket != "top" ||
		s.ACL != "public-read" || s.Private() || s.SignedURLExpires != 15*time.Minute || s.KeyPrefix != "" {
		t.Fatalf("legacy: %+v", s)
	}
	// The provider's own README puts credentials, region, endpoint and params at the top.
	c, err = ParseConfig("/app", []byte(`{"upload":{"config":{"provider":"aws-s3","providerOptions":{
		"credentials":{"accessKeyId":"A","secretAccessKey":"S"},"region":"fr-par","endpoint":"https://s3.fr-par.scw.cloud","params":{"Bucket":"x"}}}}}`),
		func(string) string { return "" })
	if err != nil || c.S3.AccessKeyID != "A" || c.S3.Endpoint != "https://s3.fr-par.scw.cloud" || c.S3.Bucket != "x" {
		t.Fatalf("top-level credentials: %+v %v", c.S3, err)
	}

	// A provider Quarry does not have, and an aws-s3 one without its bucket (an environment
	// variable not set), leave the media library read-only rather than stop the server.
	for name, cfg := range map[string]string{
		"cloudinary":                     `{"upload":{"config":{"provider":"cloudinary","providerOptions":{"cloud_name":"demo"}}}}`,
		"aws-s3":                         `{"upload":{"config":{"provider":"aws-s3","providerOptions":{"s3Options":{"region":"x"}}}}}`,
		"@strapi/provider-upload-aws-s3": `{"upload":{"config":{"provider":"@strapi/provider-upload-aws-s3","providerOptions":{"s3Options":{"params":{"ACL":"private"}}}}}}`,
	} {
		c, err := ParseConfig("/app", []byte(cfg), func(string) string { return "" })
		if err != nil || c.Unsupported != name || c.S3 != nil {
			t.Errorf("%s: %+v %v", cfg, c, err)
		}
	}

	for _, bad := range []string{
		`{"upload":{"config":{"provider":"aws-s3","providerOptions":{"s3Options":{"endpoint":"minio:9000","params":{"Bucket":"b"}}}}}}`,
		`{"upload":{"config":{"provider":"aws-s3","providerOptions":{"s3Options":{"params":{"Bucket":"b","signedUrlExpires":"soon"}}}}}}`,
		`{"upload":{"config":{"provider":"aws-s3","providerOptions":{"s3Options":{"params":{"Bucket":"b"}}},"actionOptions":{"uploadStream":{"Expires":"x"}}}}}`,
		`{"upload":{"config":{"provider":"aws-s3","providerOptions":{"s3Options":{"params":{"Bucket":"b"}}},"actionOptions":{"delete":{"VersionId":"x"}}}}}`,
	} {
		if _, err := ParseConfig("/app", []byte(bad), func(string) string { return "" }); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// Keys and urls as the provider (and lib-storage under it) makes them; the expected urls were
// produced by the provider itself against an S3-compatible server, except for the port,
// which lib-storage drops (see location).
func TestS3URLs(t *testing.T) {
	path := &s3Storage{cfg: &S3Config{Bucket: "media", ForcePathStyle: true, KeyPrefix: "pre/fix/"}, scheme: "http", host: "127.0.0.1:9000"}
	o := object{hash: "c(1)", ext: ".png", path: "sub dir"}
	if k := path.key(o); k != "pre/fix/sub dir/c(1).png" {
		t.Fatalf("key %q", k)
	}
	if u := path.url(path.key(o), path.location(path.key(o))); u != "http://127.0.0.1:9000/media/pre/fix/sub%20dir/c%281%29.png" {
		t.Fatalf("path-style url %q", u)
	}
	aws := &s3Storage{cfg: &S3Config{Bucket: "my-bucket"}, scheme: "https", host: "my-bucket.s3.eu-west-1.amazonaws.com"}
	if u := aws.url("a_b.png", aws.location("a_b.png")); u != "https://my-bucket.s3.eu-west-1.amazonaws.com/a_b.png" {
		t.Fatalf("virtual-host url %q", u)
	}
	custom := &s3Storage{cfg: &S3Config{Bucket: "b"}, scheme: "https", host: "nyc3.digitaloceanspaces.com"}
	if u := custom.location("é x!.txt"); u != "https://b.nyc3.digitaloceanspaces.com/%C3%A9%20x%21.txt" {
		t.Fatalf("custom endpoint url %q", u)
	}
	cdn := &s3Storage{cfg: &S3Config{Bucket: "b", BaseURL: "https://cdn.example.com"}, scheme: "https", host: "s3.example.com"}
	if u := cdn.url("a b.png", cdn.location("a b.png")); u != "https://cdn.example.com/a b.png" {
		t.Fatalf("baseUrl url %q", u)
	}
	// A Location without a scheme gets https:// (and no baseUrl), as in the provider.
	if u := cdn.url("k.png", "b.s3.example.com/k.png"); u != "https://b.s3.example.com/k.png" {
		t.Fatalf("schemeless url %q", u)
	}
	// Without an endpoint, the bucket's address comes from the S3 endpoint rules.
	st, err := newS3Storage(context.Background(), &S3Config{Bucket: "my-bucket", Region: "eu-west-1", AccessKeyID: "a", SecretAccessKey: "s"}, nil)
	if err != nil || st.location("x.png") != "https://my-bucket.s3.eu-west-1.amazonaws.com/x.png" {
		t.Fatalf("resolved: %v %v", st, err)
	}
	st, err = newS3Storage(context.Background(), &S3Config{Bucket: "my-bucket", Region: "eu-west-1", ForcePathStyle: true, AccessKeyID: "a", SecretAccessKey: "s"}, nil)
	if err != nil || st.location("x.png") != "https://s3.eu-west-1.amazonaws.com/my-bucket/x.png" {
		t.Fatalf("resolved path style: %v %v", st.location("x.png"), err)
	}
	for _, c := range []struct {
		bucket, region      string
		accelerate, dual    bool
		wantHost            string
		wantPath, wantError bool
	}{
		{"my-bucket", "eu-west-1", false, true, "my-bucket.s3.dualstack.eu-west-1.amazonaws.com", false, false},
		{"my-bucket", "eu-west-1", true, false, "my-bucket.s3-accelerate.amazonaws.com", false, false},
		{"my-bucket", "eu-west-1", true, true, "my-bucket.s3-accelerate.dualstack.amazonaws.com", false, false},
		{"my-bucket", "cn-north-1", false, false, "my-bucket.s3.cn-north-1.amazonaws.com.cn", false, false},
		// Names that are no DNS label go in the path (and cannot be accelerated).
		{"my.bucket", "us-east-1", false, false, "s3.us-east-1.amazonaws.com", true, false},
		{"My_Bucket", "us-east-1", false, false, "s3.us-east-1.amazonaws.com", true, false},
		{"my.bucket", "us-east-1", true, false, "", false, true},
	} {
		host, path, err := awsBucketHost(c.bucket, c.region, false, c.accelerate, c.dual)
		if host != c.wantHost || path != c.wantPath || (err != nil) != c.wantError {
			t.Errorf("%+v: %q %v %v", c, host, path, err)
		}
	}
}

// The client sends its requests where the S3 endpoint rules say (a presigned url is made
// without a request): for every bucket whose name is a DNS label, where the provider's urls
// point.
func TestS3ClientAddress(t *testing.T) {
	for _, c := range []struct {
		cfg  S3Config
		want string
	}{
		{S3Config{Bucket: "my-bucket", Region: "eu-west-1"}, "https://my-bucket.s3.eu-west-1.amazonaws.com/k.png"},
		{S3Config{Bucket: "my-bucket", Region: "eu-west-1", ForcePathStyle: true}, "https://s3.eu-west-1.amazonaws.com/my-bucket/k.png"},
		{S3Config{Bucket: "my-bucket", Region: "eu-west-1", DualStack: true}, "https://my-bucket.s3.dualstack.eu-west-1.amazonaws.com/k.png"},
		{S3Config{Bucket: "my-bucket", Region: "eu-west-1", Accelerate: true}, "https://my-bucket.s3-accelerate.amazonaws.com/k.png"},
		{S3Config{Bucket: "my-bucket", Region: "us-east-1", Accelerate: true, DualStack: true}, "https://my-bucket.s3-accelerate.dualstack.amazonaws.com/k.png"},
		{S3Config{Bucket: "my-bucket", Region: "cn-north-1"}, "https://my-bucket.s3.cn-north-1.amazonaws.com.cn/k.png"},
		{S3Config{Bucket: "my-bucket", Region: "eu-west-1", Endpoint: "https://s3.eu-west-1.amazonaws.com"}, "https://my-bucket.s3.eu-west-1.amazonaws.com/k.png"},
		{S3Config{Bucket: "media", Region: "us-east-1", Endpoint: "http://127.0.0.1:9000", ForcePathStyle: true}, "http://127.0.0.1:9000/media/k.png"},
		{S3Config{Bucket: "media", Region: "nyc3", Endpoint: "https://nyc3.digitaloceanspaces.com"}, "https://media.nyc3.digitaloceanspaces.com/k.png"},
		// A name that is no DNS label goes in the path (lib-storage's url of a small file
		// still puts it in the host name, as the provider records it).
		{S3Config{Bucket: "my.dotted.bucket", Region: "ap-southeast-2"}, "https://s3.ap-southeast-2.amazonaws.com/my.dotted.bucket/k.png"},
	} {
		cfg := c.cfg
		cfg.AccessKeyID, cfg.SecretAccessKey = "a", "s"
		st, err := newS3Storage(context.Background(), &cfg, nil)
		if err != nil {
			t.Errorf("%s: %v", c.want, err)
			continue
		}
		u, err := st.client.PresignedGetObject(context.Background(), cfg.Bucket, "k.png", time.Minute, nil)
		if err != nil {
			t.Errorf("%s: %v", c.want, err)
			continue
		}
		if got := u.Scheme + "://" + u.Host + u.Path; got != c.want {
			t.Errorf("the client asks %s, want %s", got, c.want)
		}
		if loc := st.location("k.png"); loc != c.want && !strings.Contains(cfg.Bucket, ".") {
			t.Errorf("the url is %s, the client asks %s", loc, c.want)
		}
	}
}

// Without a configured region, the region comes from the environment or the shared config
// file's profile, as the AWS SDKs find it.
func TestS3RegionFromEnvironment(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(cfg, []byte("[default]\nregion = eu-north-1\n[profile work]\nregion = ap-south-2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	t.Setenv("AWS_PROFILE", "")
	if r := regionFromEnvironment(); r != "eu-north-1" {
		t.Errorf("default profile: %q", r)
	}
	t.Setenv("AWS_PROFILE", "work")
	if r := regionFromEnvironment(); r != "ap-south-2" {
		t.Errorf("named profile: %q", r)
	}
	t.Setenv("AWS_DEFAULT_REGION", "us-west-2")
	if r := regionFromEnvironment(); r != "us-west-2" {
		t.Errorf("AWS_DEFAULT_REGION: %q", r)
	}
	t.Setenv("AWS_REGION", "eu-west-3")
	if r := regionFromEnvironment(); r != "eu-west-3" {
		t.Errorf("AWS_REGION: %q", r)
	}
}

// gateway is a Versity S3 Gateway (an S3-compatible server) run by a test on loopback.
type gateway struct {
	URL    string
	client *minio.Core
}

const gatewayKey, gatewaySecret = "quarrytest", "quarrytestsecret"

// startGateway runs the gateway binary named by QUARRY_TEST_S3_GATEWAY (or versitygw on the
// PATH) over a temporary folder, and skips the test when there is none (.ci/run installs
// it; see the README).
func startGateway(t *testing.T) *gateway {
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
	cmd := exec.Command(bin, "--access", gatewayKey, "--secret", gatewaySecret, "--port", addr, "--quiet", "posix", t.TempDir())
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("gateway log:\n%s", log.String())
		}
	})
	g := &gateway{URL: "http://" + addr}
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
	st, err := newS3Storage(context.Background(), &S3Config{Bucket: "x", Region: "us-east-1", Endpoint: g.URL, ForcePathStyle: true,
		AccessKeyID: gatewayKey, SecretAccessKey: gatewaySecret}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g.client = st.client
	return g
}

func (g *gateway) bucket(t *testing.T, name string) {
	t.Helper()
	if err := g.client.MakeBucket(context.Background(), name, minio.MakeBucketOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (g *gateway) keys(t *testing.T, bucket string) []string {
	t.Helper()
	var keys []string
	for o := range g.client.Client.ListObjects(context.Background(), bucket, minio.ListObjectsOptions{Recursive: true}) {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		keys = append(keys, o.Key)
	}
	ups, err := g.client.ListMultipartUploads(context.Background(), bucket, "", "", "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range ups.Uploads {
		keys = append(keys, "(unfinished) "+u.Key)
	}
	return keys
}

func (g *gateway) get(t *testing.T, bucket, key string) ([]byte, string) {
	t.Helper()
	body, info, _, err := g.client.GetObject(context.Background(), bucket, key, minio.GetObjectOptions{})
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	defer body.Close()
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	return b, info.ContentType
}

func unescape(s string) string {
	u, err := url.PathUnescape(s)
	if err != nil {
		return s
	}
	return u
}

// Objects go to the bucket with PutObject or a multipart upload, and a batch that is
// discarded before its rows commit leaves nothing behind.
func TestS3Store(t *testing.T) {
	g := startGateway(t)
	g.bucket(t, "media")
	ctx := context.Background()
	staging := t.TempDir()
	t.Setenv("TMPDIR", staging)
	cfg := Config{Dir: t.TempDir(), SizeLimit: DefaultSizeLimit, MaxFileBytes: DefaultMaxFileBytes, Breakpoints: DefaultBreakpoints,
		ResponsiveDimensions: true, SizeOptimization: true, Provider: "aws-s3",
		S3: &S3Config{Bucket: "media", Region: "us-east-1", Endpoint: g.URL, ForcePathStyle: true, KeyPrefix: "site/",
			AccessKeyID: gatewayKey, SecretAccessKey: gatewaySecret, ACL: "public-read"}}
	svc, err := NewFromConfig(ctx, cfg, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	small := []byte("hello bucket\n")
	big := make([]byte, 11<<20+123)
	rand.Read(big)
	var png bytes.Buffer
	if err := encode(&png, testImage(600, 400), "png", nil); err != nil {
		t.Fatal(err)
	}
	var ins []*Incoming
	for _, f := range []struct {
		name, mime string
		body       []byte
	}{{"note.txt", "text/plain", small}, {"big.bin", "application/octet-stream", big}, {"pic.png", "image/png", png.Bytes()}} {
		in, err := svc.Stage(bytes.NewReader(f.body), f.name, f.mime)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Discard()
		ins = append(ins, in)
	}
	b, err := svc.Prepare(ctx, UploadRequest{Files: ins})
	if err != nil {
		t.Fatal(err)
	}
	note, bigp, pic := b.ps[0], b.ps[1], b.ps[2]
	if want := g.URL + "/media/site/" + note.hash + ".txt"; note.url != want {
		t.Fatalf("url %s, want %s", note.url, want)
	}
	// The url of a multipart upload is the Location the server answered (this one escapes
	// the key's slashes).
	if want := g.URL + "/media/site/" + bigp.hash + ".bin"; unescape(bigp.url) != want {
		t.Fatalf("multipart url %s, want %s", bigp.url, want)
	}
	if got, ct := g.get(t, "media", "site/"+note.hash+".txt"); !bytes.Equal(got, small) || ct != "text/plain" {
		t.Fatalf("small object %q %s", got, ct)
	}
	if got, ct := g.get(t, "media", "site/"+bigp.hash+".bin"); !bytes.Equal(got, big) || ct != "application/octet-stream" {
		t.Fatalf("big object: %d bytes, %s", len(got), ct)
	}
	th := pic.formats["thumbnail"]
	if th == nil || th.URL != g.URL+"/media/site/thumbnail_"+pic.hash+".png" {
		t.Fatalf("thumbnail %+v", th)
	}
	if got, _ := g.get(t, "media", "site/"+th.Hash+".png"); len(got) != int(th.SizeInBytes) {
		t.Fatalf("thumbnail object: %d bytes, want %d", len(got), th.SizeInBytes)
	}
	if n := len(g.keys(t, "media")); n != 5 {
		t.Fatalf("%d objects: %v", n, g.keys(t, "media"))
	}
	// The rows did not commit: everything goes.
	b.Discard()
	if keys := g.keys(t, "media"); len(keys) != 0 {
		t.Fatalf("left behind: %v", keys)
	}
	// Staged files are gone too (the received ones with them).
	if left, _ := os.ReadDir(staging); len(left) != 0 {
		t.Errorf("%d staged files left", len(left))
	}

	// A failed upload: the bucket does not exist. Nothing of the batch stays, and a
	// multipart upload that fails is aborted.
	missing := *cfg.S3
	missing.Bucket = "missing"
	badCfg := cfg
	badCfg.S3 = &missing
	bad, err := NewFromConfig(ctx, badCfg, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	in, err := bad.Stage(bytes.NewReader(big), "big.bin", "application/octet-stream")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Discard()
	// A missing bucket is a configuration error, not an outage: no 503.
	if _, err := bad.Prepare(ctx, UploadRequest{Files: []*Incoming{in}}); err == nil || !strings.Contains(err.Error(), "aws-s3") {
		t.Fatalf("upload to a missing bucket: %v", err)
	}

	// A multipart upload that fails midway (its file is shorter than announced) is
	// aborted: no unfinished upload remains.
	st := svc.storage().(*s3Storage)
	bigFile := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(bigFile, big, 0o644); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(bigFile)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if _, err := st.multipart(ctx, "cut.bin", fh, int64(len(big))+6<<20, "application/octet-stream"); err == nil {
		t.Fatal("a multipart upload of a short file succeeded")
	}
	if keys := g.keys(t, "media"); len(keys) != 0 {
		t.Fatalf("left behind: %v", keys)
	}

	// Unfinished uploads a killed process left under the key prefix are aborted; those of
	// other keys, and younger ones, are not.
	for _, k := range []string{"site/killed.bin", "elsewhere/other.bin"} {
		if _, err := g.client.NewMultipartUpload(ctx, "media", k, minio.PutObjectOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := st.abortStale(ctx, time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("aborted %d young uploads: %v", n, err)
	}
	if n, err := st.abortStale(ctx, time.Now().Add(time.Minute)); err != nil || n != 1 {
		t.Fatalf("aborted %d: %v", n, err)
	}
	if keys := g.keys(t, "media"); strings.Join(keys, ",") != "(unfinished) elsewhere/other.bin" {
		t.Fatalf("left: %v", keys)
	}
}

// A bucket that cannot be reached answers 503, as a database that is down does.
func TestS3Unreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	t.Setenv("TMPDIR", t.TempDir())
	cfg := Config{Dir: t.TempDir(), SizeLimit: DefaultSizeLimit, MaxFileBytes: DefaultMaxFileBytes, Provider: "aws-s3",
		S3: &S3Config{Bucket: "media", Region: "us-east-1", Endpoint: "http://" + addr, ForcePathStyle: true,
			AccessKeyID: "a", SecretAccessKey: "s", ACL: "public-read"}}
	svc, err := NewFromConfig(context.Background(), cfg, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	in, err := svc.Stage(strings.NewReader("hello"), "a.txt", "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Discard()
	_, err = svc.Prepare(context.Background(), UploadRequest{Files: []*Incoming{in}})
	var ae *apierror.Error
	if !errors.As(err, &ae) || ae.Status != 503 || ae.RetryAfter == 0 {
		t.Fatalf("got %v, want a 503", err)
	}
}
