package upload

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// Cases of the provider's isUrlFromBucket (its own unit tests' kinds of address).
func TestIsURLFromBucket(t *testing.T) {
	for _, c := range []struct {
		url, bucket, base string
		want              bool
	}{
		{"https://bucket.s3.us-east-1.amazonaws.com/img.png", "bucket", "", true},
		{"https://other.s3.us-east-1.amazonaws.com/img.png", "bucket", "", false},
		{"https://s3.us-east-1.amazonaws.com/bucket/img.png", "bucket", "", true},
		{"https://s3.us-east-1.amazonaws.com/other/img.png", "bucket", "", false},
		{"https://s3-us-west-2.amazonaws.com/bucket/img.png", "bucket", "", true},
		{"s3://bucket/img.png", "bucket", "", true},
		{"http://127.0.0.1:7070/bucket/img.png", "bucket", "", true},
		{"http://bucket.nyc3.digitaloceanspaces.com/img.png", "bucket", "", true},
		{"https://cdn.example.com/img.png", "bucket", "", false},
		{"https://bucket.s3.us-east-1.amazonaws.com/img.png", "bucket", "https://cdn.example.com", false},
		{"/uploads/img.png", "bucket", "", false},
	} {
		if got := isURLFromBucket(c.url, c.bucket, c.base); got != c.want {
			t.Errorf("isURLFromBucket(%s, %s, %q) = %v", c.url, c.bucket, c.base, got)
		}
	}
}

// Formats keep their key order; each signed url points at the format's key and the format
// is marked isUrlSigned.
func TestSignFormats(t *testing.T) {
	st, err := newS3Storage(context.Background(), &S3Config{Bucket: "media", Region: "us-east-1", Endpoint: "http://127.0.0.1:7070",
		ForcePathStyle: true, KeyPrefix: "site/", AccessKeyID: "a", SecretAccessKey: "s", ACL: "private", SignedURLExpires: 60e9}, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"thumbnail":{"ext":".png","url":"http://127.0.0.1:7070/media/site/thumbnail_a.png","hash":"thumbnail_a","mime":"image/png","name":"thumbnail_a.png","path":null,"size":1,"width":2,"height":3,"sizeInBytes":4},"small":{"ext":".png","url":"https://cdn.example.com/small_a.png","hash":"small_a"}}`
	out, err := signFormats(context.Background(), st, json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := members(out)
	if err != nil || len(ms) != 2 || ms[0].key != "thumbnail" || ms[1].key != "small" {
		t.Fatalf("formats %s: %v", out, err)
	}
	th, _ := members(ms[0].value)
	var keys []string
	for _, m := range th {
		keys = append(keys, m.key)
	}
	if strings.Join(keys, ",") != "ext,url,hash,mime,name,path,size,width,height,sizeInBytes,isUrlSigned" {
		t.Fatalf("thumbnail keys %v", keys)
	}
	var signed string
	json.Unmarshal(th[1].value, &signed)
	u, err := url.Parse(signed)
	if err != nil || u.Path != "/media/site/thumbnail_a.png" || u.Query().Get("X-Amz-Expires") != "60" || u.Query().Get("X-Amz-Signature") == "" {
		t.Fatalf("signed url %s", signed)
	}
	if strings.Contains(string(th[1].value), `\u0026`) {
		t.Fatalf("escaped &: %s", th[1].value)
	}
	// A url outside the bucket stays as it is, but the format is marked as Strapi marks it.
	if !strings.Contains(string(ms[1].value), `"url":"https://cdn.example.com/small_a.png"`) || !strings.Contains(string(ms[1].value), `"isUrlSigned":true`) {
		t.Fatalf("small %s", ms[1].value)
	}
}
