package upload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/minio/minio-go/v7/pkg/encrypt"
	"golang.org/x/sync/errgroup"
	"gopkg.in/ini.v1"

	"github.com/quarrycms/quarry/ir/apierror"
)

// Strapi's provider uploads through @aws-sdk/lib-storage: parts of 5 MiB, four in flight,
// and one PutObject for content smaller than a part. The split matters beyond speed: the
// url of a PutObject is built by the client, the url of a multipart upload is the Location
// the server answers.
const (
	s3PartSize    = 5 << 20
	s3MaxParts    = 10000
	s3PartsAtOnce = 4
	// s3CleanupTimeout bounds taking back the objects of a failed write, which runs after
	// the request's own context may be gone.
	s3CleanupTimeout = 2 * time.Minute
	// s3Attempts is how often a request is tried before it fails (the AWS SDKs' standard
	// retry mode: three attempts).
	s3Attempts = 3
)

// s3Storage is Strapi's aws-s3 provider: objects in a bucket under
// <rootPath>/<hash><ext>, with the urls that provider records. It talks to the bucket with
// minio-go, an S3 client a fraction of the AWS SDK's size (docs/build.md).
type s3Storage struct {
	cfg    *S3Config
	client *minio.Core
	log    *slog.Logger
	// scheme and host are where the client sends requests for the bucket; urls of
	// PutObject uploads are built from them as lib-storage builds its Location.
	scheme, host string
}

// newS3Storage builds the S3 client as the provider's S3Client is built: static credentials
// when configured, else the default chain of the AWS SDKs (environment, shared credentials
// and config files, container and instance roles, web identity); the region from the
// configuration, else AWS_REGION, AWS_DEFAULT_REGION or the shared config file's profile.
func newS3Storage(ctx context.Context, c *S3Config, log *slog.Logger) (*s3Storage, error) {
	region := c.Region
	if region == "" {
		region = regionFromEnvironment()
	}
	if region == "" {
		return nil, errors.New("aws-s3: no region: set providerOptions.s3Options.region (or AWS_REGION)")
	}
	var creds *credentials.Credentials
	if c.AccessKeyID != "" {
		creds = credentials.NewStaticV4(c.AccessKeyID, c.SecretAccessKey, c.SessionToken)
	} else {
		creds = credentials.NewChainCredentials([]credentials.Provider{
			&credentials.EnvAWS{},
			&credentials.FileAWSCredentials{},
			&credentials.IAM{Client: &http.Client{Transport: http.DefaultTransport}},
		})
	}
	opts := &minio.Options{Creds: creds, Region: region, MaxRetries: s3Attempts, BucketLookup: minio.BucketLookupDNS}
	if c.ForcePathStyle {
		opts.BucketLookup = minio.BucketLookupPath
	}
	st := &s3Storage{cfg: c, log: log}
	if st.log == nil {
		st.log = slog.Default()
	}
	var endpoint string
	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("aws-s3: endpoint %q is not a URL", c.Endpoint)
		}
		if u.Path != "" && u.Path != "/" {
			return nil, fmt.Errorf("aws-s3: endpoint %q has a path; give the service's address only", c.Endpoint)
		}
		st.scheme, st.host = u.Scheme, u.Host
		endpoint, opts.Secure = u.Host, u.Scheme == "https"
	} else {
		host, pathStyle, err := awsBucketHost(c.Bucket, region, c.ForcePathStyle, c.Accelerate, c.DualStack)
		if err != nil {
			return nil, err
		}
		st.scheme, st.host = "https", host
		// The client gets the service's host (minio-go picks the same regional or
		// accelerate host of an AWS address from the region) and the bucket's place.
		endpoint, opts.Secure = strings.TrimPrefix(host, c.Bucket+"."), true
		if c.Accelerate {
			endpoint = "s3.amazonaws.com"
		}
		opts.BucketLookup = minio.BucketLookupDNS
		if pathStyle {
			opts.BucketLookup = minio.BucketLookupPath
		}
	}
	client, err := minio.NewCore(endpoint, opts)
	if err != nil {
		return nil, fmt.Errorf("aws-s3: %w", err)
	}
	// minio-go's default on an AWS address (an endpoint naming one too) is dual-stack; the
	// SDKs' (and the provider's) is not.
	client.SetS3EnableDualstack(c.DualStack)
	if c.Endpoint == "" {
		if c.Accelerate {
			accel := "s3-accelerate.amazonaws.com"
			if c.DualStack {
				accel = "s3-accelerate.dualstack.amazonaws.com"
			}
			client.SetS3TransferAccelerate(accel)
		}
	}
	st.client = client
	return st, nil
}

// regionFromEnvironment is where the AWS SDKs find a region that the configuration does not
// name: AWS_REGION, AWS_DEFAULT_REGION, then the profile (AWS_PROFILE, else default) of the
// shared config file (AWS_CONFIG_FILE, else ~/.aws/config).
func regionFromEnvironment() string {
	for _, v := range []string{"AWS_REGION", "AWS_DEFAULT_REGION"} {
		if r := os.Getenv(v); r != "" {
			return r
		}
	}
	file := os.Getenv("AWS_CONFIG_FILE")
	if file == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		file = filepath.Join(home, ".aws", "config")
	}
	cfg, err := ini.Load(file)
	if err != nil {
		return ""
	}
	section := "default"
	if p := os.Getenv("AWS_PROFILE"); p != "" && p != "default" {
		section = "profile " + p
	}
	return cfg.Section(section).Key("region").String()
}

// awsBucketHost is the S3 endpoint rules' address of a bucket on AWS (aws and aws-cn
// partitions): the bucket in the host name (virtual-hosted style) when the bucket's name
// allows it, else in the path; the accelerate and dual-stack variants when asked for.
func awsBucketHost(bucket, region string, forcePathStyle, accelerate, dualStack bool) (host string, pathStyle bool, err error) {
	suffix := "amazonaws.com"
	if strings.HasPrefix(region, "cn-") {
		suffix = "amazonaws.com.cn"
	}
	pathStyle = forcePathStyle || !virtualHostable(bucket)
	if accelerate {
		if pathStyle {
			return "", false, fmt.Errorf("aws-s3: bucket %q cannot be used with useAccelerateEndpoint (path-style addressing)", bucket)
		}
		if dualStack {
			return bucket + ".s3-accelerate.dualstack." + suffix, false, nil
		}
		return bucket + ".s3-accelerate." + suffix, false, nil
	}
	service := "s3." + region + "." + suffix
	if dualStack {
		service = "s3.dualstack." + region + "." + suffix
	}
	if pathStyle {
		return service, true, nil
	}
	return bucket + "." + service, false, nil
}

var hostableBucket = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$`)

// virtualHostable is the endpoint rules' isVirtualHostableS3Bucket without subdomains: a
// DNS label of 3 to 63 lower-case letters, digits and hyphens that is not an IP address.
func virtualHostable(bucket string) bool {
	return hostableBucket.MatchString(bucket) && net.ParseIP(bucket) == nil
}

// stagingDir: uploads are processed in the system's temporary folder (the app folder may
// be read-only where media live in a bucket).
func (s *s3Storage) stagingDir() string { return os.TempDir() }

// key is the provider's getFileKey: <rootPath>/<path>/<hash><ext>.
func (s *s3Storage) key(o object) string {
	k := s.cfg.KeyPrefix
	if o.path != "" {
		k += o.path + "/"
	}
	return k + o.hash + o.ext
}

// put uploads a staged object: one PutObject below a part's size, a multipart upload
// otherwise, streamed from the staged file (a multipart upload that fails is aborted). A
// bucket that cannot be reached answers 503, as a database that is down does.
func (s *s3Storage) put(ctx context.Context, o object) (string, error) {
	u, err := s.upload(ctx, o)
	if err != nil && unreachable(err) {
		s.log.Error("aws-s3: the bucket cannot be reached", "bucket", s.cfg.Bucket, "err", err)
		return "", apierror.ServiceUnavailable(s3RetryAfter)
	}
	return u, err
}

// s3RetryAfter is the Retry-After, in seconds, of an upload the bucket could not take.
const s3RetryAfter = 5

// unreachable tells a bucket that cannot be reached now (a refused or timed-out connection,
// a 5xx answer, once the client's retries are spent) from a refusal (a missing bucket,
// denied access), which is a configuration error.
func unreachable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var resp minio.ErrorResponse
	return errors.As(err, &resp) && resp.StatusCode >= 500
}

func (s *s3Storage) upload(ctx context.Context, o object) (string, error) {
	f, err := os.Open(o.tmp)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	key := s.key(o)
	opts, err := s.putOptions(o.mime)
	if err != nil {
		return "", err
	}
	if st.Size() < s3PartSize {
		if _, err := s.client.PutObject(ctx, s.cfg.Bucket, key, f, st.Size(), "", "", opts); err != nil {
			return "", fmt.Errorf("aws-s3: upload %s: %w", key, err)
		}
		return s.url(key, s.location(key)), nil
	}
	loc, err := s.multipart(ctx, key, f, st.Size(), o.mime)
	if err != nil {
		return "", err
	}
	return s.url(key, loc), nil
}

// putOptions are an upload's parameters: the content type, the configured ACL, and
// actionOptions.uploadStream over them, as the provider spreads it last.
func (s *s3Storage) putOptions(mime string) (minio.PutObjectOptions, error) {
	p := s.cfg.Put
	acl := s.cfg.ACL
	if p.ACL != "" {
		acl = p.ACL
	}
	// Headers minio-go has no field for go through UserMetadata: x-amz-* names are sent as
	// they are, so the object's own metadata is named x-amz-meta-* here already.
	meta := map[string]string{}
	if acl != "" {
		meta["x-amz-acl"] = acl
	}
	for k, v := range p.Metadata {
		meta["x-amz-meta-"+k] = v
	}
	opts := minio.PutObjectOptions{ContentType: mime, CacheControl: p.CacheControl, ContentDisposition: p.ContentDisposition,
		ContentEncoding: p.ContentEncoding, ContentLanguage: p.ContentLanguage, StorageClass: p.StorageClass, UserMetadata: meta}
	switch p.ServerSideEncryption {
	case "":
	case "AES256":
		opts.ServerSideEncryption = encrypt.NewSSE()
	case "aws:kms":
		sse, err := encrypt.NewSSEKMS(p.SSEKMSKeyID, nil)
		if err != nil {
			return opts, fmt.Errorf("aws-s3: actionOptions.uploadStream.SSEKMSKeyId: %w", err)
		}
		opts.ServerSideEncryption = sse
	default:
		return opts, fmt.Errorf("aws-s3: actionOptions.uploadStream.ServerSideEncryption %q: want AES256 or aws:kms", p.ServerSideEncryption)
	}
	if p.Tagging != "" {
		tags, err := url.ParseQuery(p.Tagging)
		if err != nil {
			return opts, fmt.Errorf("aws-s3: actionOptions.uploadStream.Tagging: %w", err)
		}
		opts.UserTags = map[string]string{}
		for k, v := range tags {
			opts.UserTags[k] = v[0]
		}
	}
	return opts, nil
}

func (s *s3Storage) multipart(ctx context.Context, key string, f *os.File, size int64, mime string) (string, error) {
	opts, err := s.putOptions(mime)
	if err != nil {
		return "", err
	}
	id, err := s.client.NewMultipartUpload(ctx, s.cfg.Bucket, key, opts)
	if err != nil {
		return "", fmt.Errorf("aws-s3: start the upload of %s: %w", key, err)
	}
	abort := func(cause error) error {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s3CleanupTimeout)
		defer cancel()
		if err := s.client.AbortMultipartUpload(actx, s.cfg.Bucket, key, id); err != nil {
			return errors.Join(cause, fmt.Errorf("aws-s3: abort the upload of %s: %w", key, err))
		}
		return cause
	}
	partSize := int64(s3PartSize)
	for (size+partSize-1)/partSize > s3MaxParts {
		partSize *= 2
	}
	n := int((size + partSize - 1) / partSize)
	parts := make([]minio.CompletePart, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s3PartsAtOnce)
	for i := range n {
		off := int64(i) * partSize
		length := min(partSize, size-off)
		g.Go(func() error {
			out, err := s.client.PutObjectPart(gctx, s.cfg.Bucket, key, id, i+1, io.NewSectionReader(f, off, length), length,
				minio.PutObjectPartOptions{SSE: opts.ServerSideEncryption})
			if err != nil {
				return fmt.Errorf("aws-s3: upload part %d of %s: %w", i+1, key, err)
			}
			parts[i] = minio.CompletePart{ETag: out.ETag, PartNumber: i + 1}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return "", abort(err)
	}
	done, err := s.client.CompleteMultipartUpload(ctx, s.cfg.Bucket, key, id, parts, minio.PutObjectOptions{})
	if err != nil {
		return "", abort(fmt.Errorf("aws-s3: complete the upload of %s: %w", key, err))
	}
	loc := done.Location
	if loc == "" {
		loc = s.location(key)
	}
	return loc, nil
}

// location is lib-storage's Location of a PutObject: the bucket in the path with
// forcePathStyle, else in the host name. One difference on purpose: lib-storage drops the
// endpoint's port (its url of a small file on http://host:9000 points at port 80), Quarry
// keeps it; for every endpoint without a port the urls are the same.
func (s *s3Storage) location(key string) string {
	segs := strings.Split(key, "/")
	for i, seg := range segs {
		segs[i] = encodeURIComponent(seg)
	}
	k := strings.Join(segs, "/")
	b := encodeURIComponent(s.cfg.Bucket)
	switch {
	case s.cfg.ForcePathStyle:
		return s.scheme + "://" + s.host + "/" + b + "/" + k
	case strings.HasPrefix(s.host, b+"."):
		return s.scheme + "://" + s.host + "/" + k
	}
	return s.scheme + "://" + b + "." + s.host + "/" + k
}

var hasScheme = regexp.MustCompile(`^\w*://`)

// url is the provider's file.url: baseUrl + the key when a base url is configured (and the
// location is a URL), else the location (with https:// when it has no scheme).
func (s *s3Storage) url(key, location string) string {
	if !hasScheme.MatchString(location) {
		return "https://" + location
	}
	if s.cfg.BaseURL != "" {
		return s.cfg.BaseURL + "/" + key
	}
	return location
}

// encodeURIComponent is JavaScript's encodeURIComponent with !'()* escaped too (smithy's
// extendedEncodeURIComponent): every byte but A-Z a-z 0-9 - _ . ~ as %XX.
func encodeURIComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

func (s *s3Storage) unput(ctx context.Context, o object) error { return s.remove(ctx, o) }

func (s *s3Storage) publish(object) error { return nil }

func (s *s3Storage) remove(ctx context.Context, o object) error {
	key := s.key(o)
	if err := s.client.RemoveObject(ctx, s.cfg.Bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return fmt.Errorf("aws-s3: delete %s: %w", key, err)
	}
	return nil
}

// abortStale aborts the multipart uploads under the key prefix that were started before
// cutoff: what a process killed in the middle of an upload leaves in the bucket (parts no
// object is made of, billed all the same). Other instances' uploads in progress are younger.
func (s *s3Storage) abortStale(ctx context.Context, cutoff time.Time) (int, error) {
	n := 0
	var keyMarker, idMarker string
	for {
		page, err := s.client.ListMultipartUploads(ctx, s.cfg.Bucket, s.cfg.KeyPrefix, keyMarker, idMarker, "", 1000)
		if err != nil {
			return n, fmt.Errorf("aws-s3: list unfinished uploads: %w", err)
		}
		for _, u := range page.Uploads {
			if u.Initiated.IsZero() || !u.Initiated.Before(cutoff) {
				continue
			}
			if err := s.client.AbortMultipartUpload(ctx, s.cfg.Bucket, u.Key, u.UploadID); err != nil {
				return n, fmt.Errorf("aws-s3: abort the unfinished upload of %s: %w", u.Key, err)
			}
			n++
		}
		if !page.IsTruncated || page.NextKeyMarker == "" && page.NextUploadIDMarker == "" {
			return n, nil
		}
		keyMarker, idMarker = page.NextKeyMarker, page.NextUploadIDMarker
	}
}
