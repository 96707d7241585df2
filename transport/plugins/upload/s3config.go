package upload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// S3Config is the configuration of Strapi's aws-s3 upload provider
// (@strapi/provider-upload-aws-s3), read from `upload.config.providerOptions` and
// `actionOptions` as that provider reads them.
type S3Config struct {
	// BaseURL replaces the bucket's address in file urls (`baseUrl`, a CDN).
	BaseURL string
	// KeyPrefix starts every object key: `rootPath` without its trailing slashes, plus one
	// slash (empty without a rootPath).
	KeyPrefix string
	Bucket    string
	// ACL is the canned ACL of every object (`params.ACL`, public-read by default); private
	// makes the provider private: urls are signed when served.
	ACL string
	// SignedURLExpires is how long a signed url stays valid (`params.signedUrlExpires`, in
	// seconds, 15 minutes by default).
	SignedURLExpires time.Duration
	Region           string
	// Endpoint is an S3-compatible service's address (`endpoint`); empty for AWS.
	Endpoint       string
	ForcePathStyle bool
	Accelerate     bool
	DualStack      bool
	// Static credentials; when empty the AWS SDKs' default chain is followed (environment,
	// shared config files, container and instance roles), as the JavaScript SDK does.
	AccessKeyID, SecretAccessKey, SessionToken string
	// Put holds `actionOptions.uploadStream`: extra parameters of every upload.
	Put PutParams
	// Ignored lists options that Strapi passes to the JavaScript S3 client and Quarry does
	// not use (apiVersion, signatureVersion of older configurations, …), for a warning.
	Ignored []string
}

// PutParams are the upload parameters `actionOptions.uploadStream` may set.
type PutParams struct {
	ACL, CacheControl, ContentDisposition, ContentEncoding, ContentLanguage string
	ServerSideEncryption, SSEKMSKeyID, StorageClass, Tagging                string
	Metadata                                                                map[string]string
}

// Private reports whether urls are signed when served (the provider's isPrivate).
func (c *S3Config) Private() bool { return c.ACL == "private" }

// errNoBucket is an aws-s3 configuration without its bucket (an environment variable not
// set): Strapi starts with it and fails on the first upload.
var errNoBucket = errors.New("the aws-s3 provider needs providerOptions.s3Options.params.Bucket")

// providerKind tells the providers Quarry has apart by the configured name, as Strapi
// resolves it (lower-cased, with or without the @strapi/provider-upload- prefix).
func providerKind(name string) (string, bool) {
	n := strings.TrimPrefix(strings.ToLower(name), "@strapi/provider-upload-")
	switch n {
	case "", "local":
		return "local", true
	case "aws-s3":
		return "aws-s3", true
	}
	return "", false
}

// parseS3Config reads the aws-s3 provider's options. Like the provider's init it merges the
// deprecated top-level S3 options over `s3Options`, takes credentials from the top level,
// then from `s3Options`, then from `s3Options.credentials`, and defaults `params.ACL` to
// public-read. What the provider would only find missing at the first upload (the bucket,
// the region) is refused here.
func parseS3Config(providerOptions, actionOptions json.RawMessage) (*S3Config, error) {
	opts, err := jsonObject(providerOptions, "providerOptions")
	if err != nil {
		return nil, err
	}
	c := &S3Config{ACL: "public-read", SignedURLExpires: 15 * time.Minute}
	if c.BaseURL, err = optString(opts, "baseUrl", "providerOptions.baseUrl"); err != nil {
		return nil, err
	}
	rootPath, err := optString(opts, "rootPath", "providerOptions.rootPath")
	if err != nil {
		return nil, err
	}
	if rootPath != "" {
		c.KeyPrefix = strings.TrimRight(rootPath, "/") + "/"
	}
	s3opts := map[string]any{}
	if v, ok := opts["s3Options"]; ok && v != nil {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, errors.New("providerOptions.s3Options must be an object")
		}
		s3opts = m
	}
	legacy := map[string]any{}
	for k, v := range opts {
		if k != "baseUrl" && k != "rootPath" && k != "s3Options" {
			legacy[k] = v
		}
	}
	merged := maps.Clone(s3opts)
	maps.Copy(merged, legacy)
	if err := c.credentials(legacy, s3opts, merged); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"region", &c.Region}, {"endpoint", &c.Endpoint}} {
		if *f.dst, err = optString(merged, f.key, "s3Options."+f.key); err != nil {
			return nil, err
		}
	}
	c.ForcePathStyle = truthy(merged["forcePathStyle"])
	c.Accelerate = truthy(merged["useAccelerateEndpoint"])
	c.DualStack = truthy(merged["useDualstackEndpoint"])
	params, ok := merged["params"].(map[string]any)
	if !ok {
		return nil, errNoBucket
	}
	if c.Bucket, err = optString(params, "Bucket", "s3Options.params.Bucket"); err != nil {
		return nil, err
	}
	if c.Bucket == "" {
		return nil, errNoBucket
	}
	if acl, err := optString(params, "ACL", "s3Options.params.ACL"); err != nil {
		return nil, err
	} else if acl != "" {
		c.ACL = acl
	}
	if v, ok := params["signedUrlExpires"]; ok && v != nil {
		secs, err := strconv.ParseFloat(strings.TrimSpace(fmt.Sprint(v)), 64)
		if err != nil || secs <= 0 {
			return nil, fmt.Errorf("s3Options.params.signedUrlExpires must be a positive number of seconds, not %v", v)
		}
		c.SignedURLExpires = time.Duration(secs * float64(time.Second))
	}
	if c.Endpoint != "" && !strings.HasPrefix(c.Endpoint, "http://") && !strings.HasPrefix(c.Endpoint, "https://") {
		return nil, fmt.Errorf("s3Options.endpoint %q must be a URL starting with http:// or https://", c.Endpoint)
	}
	for k := range merged {
		switch k {
		case "region", "endpoint", "forcePathStyle", "useAccelerateEndpoint", "useDualstackEndpoint", "params",
			"credentials", "accessKeyId", "secretAccessKey":
		default:
			c.Ignored = append(c.Ignored, k)
		}
	}
	slices.Sort(c.Ignored)
	if err := c.actions(actionOptions); err != nil {
		return nil, err
	}
	return c, nil
}

// credentials picks the static credentials as the provider's extractCredentials does.
func (c *S3Config) credentials(legacy, s3opts, merged map[string]any) error {
	str := func(m map[string]any, k string) string {
		s, _ := m[k].(string)
		return s
	}
	switch {
	case str(legacy, "accessKeyId") != "" && str(legacy, "secretAccessKey") != "":
		c.AccessKeyID, c.SecretAccessKey = str(legacy, "accessKeyId"), str(legacy, "secretAccessKey")
	case str(s3opts, "accessKeyId") != "" && str(s3opts, "secretAccessKey") != "":
		c.AccessKeyID, c.SecretAccessKey = str(s3opts, "accessKeyId"), str(s3opts, "secretAccessKey")
	default:
		// s3Options.credentials, else whatever credentials the top level brought.
		v, ok := s3opts["credentials"]
		if !ok || v == nil {
			v = merged["credentials"]
		}
		if v == nil {
			return nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return errors.New("s3Options.credentials must be an object with accessKeyId and secretAccessKey")
		}
		c.AccessKeyID, c.SecretAccessKey, c.SessionToken = str(m, "accessKeyId"), str(m, "secretAccessKey"), str(m, "sessionToken")
	}
	if (c.AccessKeyID == "") != (c.SecretAccessKey == "") {
		return errors.New("s3Options.credentials needs both accessKeyId and secretAccessKey")
	}
	return nil
}

// actions reads `actionOptions`: Strapi calls the provider's uploadStream with
// `actionOptions.uploadStream` and its delete with `actionOptions.delete` (never upload,
// which the aws-s3 provider only keeps for older Strapis).
func (c *S3Config) actions(raw json.RawMessage) error {
	all, err := jsonObject(raw, "actionOptions")
	if err != nil {
		return err
	}
	if v, ok := all["delete"].(map[string]any); ok && len(v) > 0 {
		return fmt.Errorf("actionOptions.delete: parameters %s are not supported", strings.Join(slices.Sorted(maps.Keys(v)), ", "))
	}
	up, _ := all["uploadStream"].(map[string]any)
	for k, v := range up {
		if k == "Metadata" {
			m, ok := v.(map[string]any)
			if !ok {
				return errors.New("actionOptions.uploadStream.Metadata must be an object of strings")
			}
			c.Put.Metadata = map[string]string{}
			for mk, mv := range m {
				c.Put.Metadata[mk] = fmt.Sprint(mv)
			}
			continue
		}
		dst := map[string]*string{"ACL": &c.Put.ACL, "CacheControl": &c.Put.CacheControl, "ContentDisposition": &c.Put.ContentDisposition,
			"ContentEncoding": &c.Put.ContentEncoding, "ContentLanguage": &c.Put.ContentLanguage,
			"ServerSideEncryption": &c.Put.ServerSideEncryption, "SSEKMSKeyId": &c.Put.SSEKMSKeyID,
			"StorageClass": &c.Put.StorageClass, "Tagging": &c.Put.Tagging}[k]
		if dst == nil {
			return fmt.Errorf("actionOptions.uploadStream.%s is not supported (supported: ACL, CacheControl, ContentDisposition, ContentEncoding, ContentLanguage, Metadata, ServerSideEncryption, SSEKMSKeyId, StorageClass, Tagging)", k)
		}
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("actionOptions.uploadStream.%s must be a string", k)
		}
		*dst = s
	}
	return nil
}

func jsonObject(raw json.RawMessage, what string) (map[string]any, error) {
	out := map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return out, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("%s must be an object: %w", what, err)
	}
	return out, nil
}

// optString reads an optional string option (absent and null are "").
func optString(m map[string]any, key, what string) (string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s must be a string", what)
	}
	return s, nil
}

// truthy is JavaScript's truthiness of a JSON value: env('X') gives a string, and the
// provider tests it as one ("false" is true).
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err == nil && f != 0
	}
	return true
}
