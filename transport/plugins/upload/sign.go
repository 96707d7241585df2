package upload

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// Signing reports whether read results need SignMedia: the aws-s3 provider on a private
// bucket (`params.ACL: 'private'`).
func (s *Service) Signing() bool {
	st, ok := s.storage().(*s3Storage)
	return ok && st.cfg.Private()
}

// SignMedia gives the files of a read's result that are values of media attributes (at any
// depth: in populated relations, components and dynamic zones) presigned urls, as Strapi's
// upload plugin decorates its entity service when the provider is private: the file's url
// and each format's url, for files of the configured provider whose url points into the
// bucket. Files read as such (the upload routes, uploadFiles) keep their stored urls, as in
// Strapi. A level read without the file's provider (fields=url) is not signed either.
func (s *Service) SignMedia(ctx context.Context, p *plan.Plan, res *exec.Result) error {
	if !s.Signing() || p == nil || res == nil {
		return nil
	}
	return s.signLevel(ctx, s.storage().(*s3Storage), p.Root, res.Entries)
}

func (s *Service) signLevel(ctx context.Context, st *s3Storage, sel *plan.Select, entries []*exec.Entry) error {
	for ci, c := range sel.Children {
		if c.Count || len(c.Steps) == 0 {
			continue
		}
		for _, e := range entries {
			if ci >= len(e.Kids) {
				continue
			}
			kid := e.Kids[ci]
			for j, ke := range kid.Entries {
				step := c.Steps[0]
				if j < len(kid.Steps) && kid.Steps[j] != nil {
					step = kid.Steps[j]
				}
				if c.Attr != nil && c.Attr.Type == schemas.Media {
					if err := s.signFile(ctx, st, step, ke); err != nil {
						return err
					}
				}
				if len(step.Children) > 0 {
					if err := s.signLevel(ctx, st, step, []*exec.Entry{ke}); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// signFile is the upload plugin's signFileUrls for one file entry.
func (s *Service) signFile(ctx context.Context, st *s3Storage, step *plan.Select, e *exec.Entry) error {
	col := map[string]int{}
	for i, a := range step.Columns {
		col[a.Name] = i
	}
	str := func(name string) (string, bool) {
		i, ok := col[name]
		if !ok || i >= len(e.Values) {
			return "", false
		}
		v, ok := e.Values[i].(string)
		return v, ok
	}
	provider, ok := str("provider")
	if !ok || provider != s.Config.Provider {
		return nil
	}
	u, ok := str("url")
	if !ok {
		return nil
	}
	hash, _ := str("hash")
	ext, _ := str("ext")
	signed, err := st.sign(ctx, object{hash: hash, ext: ext}, u)
	if err != nil {
		return err
	}
	e.Values[col["url"]] = signed
	if i, ok := col["formats"]; ok && i < len(e.Values) {
		raw, ok := e.Values[i].(json.RawMessage)
		if ok && len(raw) > 0 && string(raw) != "null" {
			out, err := signFormats(ctx, st, raw)
			if err != nil {
				return err
			}
			e.Values[i] = out
		}
	}
	return nil
}

type member struct {
	key   string
	value json.RawMessage
}

// members reads a JSON object's members in order.
func members(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{tok.(string), v})
	}
	return out, nil
}

func writeMembers(b *bytes.Buffer, ms []member) {
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, m.key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
}

// writeJSONString writes s as JSON.stringify does (no HTML escaping: a signed url keeps its
// & as they are).
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}

// signFormats signs the url of each format, keeping the key order, and marks each format
// isUrlSigned as the plugin does. A formats value that is not an object of objects is left
// as it is.
func signFormats(ctx context.Context, st *s3Storage, raw json.RawMessage) (json.RawMessage, error) {
	formats, err := members(raw)
	if err != nil {
		return raw, nil
	}
	for fi, f := range formats {
		ms, err := members(f.value)
		if err != nil {
			continue
		}
		var o object
		var u string
		urlAt := -1
		for i, m := range ms {
			var v string
			json.Unmarshal(m.value, &v)
			switch m.key {
			case "hash":
				o.hash = v
			case "ext":
				o.ext = v
			case "path":
				o.path = v
			case "url":
				u, urlAt = v, i
			}
		}
		if urlAt < 0 {
			continue
		}
		signed, err := st.sign(ctx, o, u)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		writeJSONString(&b, signed)
		ms[urlAt].value = append(json.RawMessage(nil), b.Bytes()...)
		ms = append(ms, member{"isUrlSigned", json.RawMessage("true")})
		b.Reset()
		writeMembers(&b, ms)
		formats[fi].value = b.Bytes()
	}
	var b bytes.Buffer
	writeMembers(&b, formats)
	return b.Bytes(), nil
}

// sign is the provider's getSignedUrl: a presigned GetObject url for the object's key, valid
// for signedUrlExpires, or the url as it is when it does not point into the bucket.
func (s *s3Storage) sign(ctx context.Context, o object, current string) (string, error) {
	if !isURLFromBucket(current, s.cfg.Bucket, s.cfg.BaseURL) {
		return current, nil
	}
	u, err := s.client.PresignedGetObject(ctx, s.cfg.Bucket, s.key(o), s.cfg.SignedURLExpires, nil)
	if err != nil {
		return "", fmt.Errorf("aws-s3: sign the url of %s: %w", s.key(o), err)
	}
	return u.String(), nil
}

var awsEndpoint = regexp.MustCompile(`^(.+\.)?s3[.-]([a-z0-9-]+)\.`)

// isURLFromBucket is the provider's isUrlFromBucket: never with a base url; for an AWS
// address, whether it names the bucket; otherwise whether the host starts with the bucket or
// the path holds it.
func isURLFromBucket(fileURL, bucket, baseURL string) bool {
	u, err := url.Parse(fileURL)
	if err != nil || u.Scheme == "" || baseURL != "" {
		return false
	}
	if b, ok := bucketOfAWSURL(u); ok && b != "" {
		return b == bucket
	}
	return strings.HasPrefix(u.Host, bucket+".") || strings.Contains(u.EscapedPath(), "/"+bucket+"/")
}

// bucketOfAWSURL is the provider's getBucketFromAwsUrl; ok is false where that reports an
// error, and the bucket is "" for an AWS address without one.
func bucketOfAWSURL(u *url.URL) (string, bool) {
	if u.Scheme == "s3" {
		return u.Host, u.Host != ""
	}
	if u.Host == "" {
		return "", false
	}
	m := awsEndpoint.FindStringSubmatch(u.Host)
	if m == nil {
		return "", false
	}
	if m[1] != "" {
		return strings.TrimSuffix(m[1], "."), true
	}
	p := u.EscapedPath()
	if p == "/" || p == "" {
		return "", true
	}
	rest := p[1:]
	if i := strings.Index(rest, "/"); i >= 0 {
		return rest[:i], true
	}
	return rest, true
}
