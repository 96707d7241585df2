package upload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"golang.org/x/sync/errgroup"

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
)

// s3Storage is Strapi's aws-s3 provider: objects in a bucket under
// <rootPath>/<hash><ext>, with the urls that provider records.
type s3Storage struct {
	cfg    *S3Config
	client *s3.Client
	log    *slog.Logger
	// scheme and host are where the client sends requests for the bucket; urls of
	// PutObject uploads are built from them as lib-storage builds its Location.
	scheme, host string
}

// newS3Storage builds the S3 client as the provider's S3Client is built: static credentials
// when configured, else the SDK's default chain; the region from the configuration or
// AWS_REGION.
func newS3Storage(ctx context.Context, c *S3Config, log *slog.Logger) (*s3Storage, error) {
	var opts []func(*awsconfig.LoadOptions) error
	if c.Region != "" {
		opts = append(opts, awsconfig.WithRegion(c.Region))
	}
	if c.AccessKeyID != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(c.AccessKeyID, c.SecretAccessKey, c.SessionToken)))
	}
	acfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("aws-s3: load AWS configuration: %w", err)
	}
	if acfg.Region == "" {
		return nil, errors.New("aws-s3: no region: set providerOptions.s3Options.region (or AWS_REGION)")
	}
	client := s3.NewFromConfig(acfg, func(o *s3.Options) {
		if c.Endpoint != "" {
			o.BaseEndpoint = aws.String(c.Endpoint)
		}
		o.UsePathStyle = c.ForcePathStyle
		o.UseAccelerate = c.Accelerate
		if c.DualStack {
			o.EndpointOptions.UseDualStackEndpoint = aws.DualStackEndpointStateEnabled
		}
		// The JavaScript SDK Strapi pins sends no CRC checksums; several S3-compatible
		// services refuse the ones newer SDKs add by default.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	if log == nil {
		log = slog.Default()
	}
	st := &s3Storage{cfg: c, client: client, log: log}
	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("aws-s3: endpoint %q is not a URL", c.Endpoint)
		}
		st.scheme, st.host = u.Scheme, u.Host
	} else {
		ep, err := s3.NewDefaultEndpointResolverV2().ResolveEndpoint(ctx, s3.EndpointParameters{
			Bucket: aws.String(c.Bucket), Region: aws.String(acfg.Region), ForcePathStyle: aws.Bool(c.ForcePathStyle),
			Accelerate: aws.Bool(c.Accelerate), UseDualStack: aws.Bool(c.DualStack), UseFIPS: aws.Bool(false),
		})
		if err != nil {
			return nil, fmt.Errorf("aws-s3: resolve the bucket's endpoint: %w", err)
		}
		st.scheme, st.host = ep.URI.Scheme, ep.URI.Host
	}
	return st, nil
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
// a 5xx answer, once the SDK's retries are spent) from a refusal (a missing bucket, denied
// access), which is a configuration error.
func unreachable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var status interface{ HTTPStatusCode() int }
	return errors.As(err, &status) && status.HTTPStatusCode() >= 500
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
	if st.Size() < s3PartSize {
		in := &s3.PutObjectInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(key), Body: f,
			ContentLength: aws.Int64(st.Size()), ContentType: aws.String(o.mime), ACL: types.ObjectCannedACL(s.cfg.ACL)}
		s.putParams(&in.ACL, &in.CacheControl, &in.ContentDisposition, &in.ContentEncoding, &in.ContentLanguage,
			&in.ServerSideEncryption, &in.SSEKMSKeyId, &in.StorageClass, &in.Tagging, &in.Metadata)
		if _, err := s.client.PutObject(ctx, in); err != nil {
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

// putParams applies actionOptions.uploadStream over the object's parameters, as the
// provider spreads them last.
func (s *s3Storage) putParams(acl *types.ObjectCannedACL, cacheControl, disposition, encoding, language **string,
	sse *types.ServerSideEncryption, kms **string, class *types.StorageClass, tagging **string, meta *map[string]string) {
	p := s.cfg.Put
	if p.ACL != "" {
		*acl = types.ObjectCannedACL(p.ACL)
	}
	for _, f := range []struct {
		v   string
		dst **string
	}{{p.CacheControl, cacheControl}, {p.ContentDisposition, disposition}, {p.ContentEncoding, encoding},
		{p.ContentLanguage, language}, {p.SSEKMSKeyID, kms}, {p.Tagging, tagging}} {
		if f.v != "" {
			*f.dst = aws.String(f.v)
		}
	}
	if p.ServerSideEncryption != "" {
		*sse = types.ServerSideEncryption(p.ServerSideEncryption)
	}
	if p.StorageClass != "" {
		*class = types.StorageClass(p.StorageClass)
	}
	if p.Metadata != nil {
		*meta = p.Metadata
	}
}

func (s *s3Storage) multipart(ctx context.Context, key string, f *os.File, size int64, mime string) (string, error) {
	in := &s3.CreateMultipartUploadInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(key),
		ContentType: aws.String(mime), ACL: types.ObjectCannedACL(s.cfg.ACL)}
	s.putParams(&in.ACL, &in.CacheControl, &in.ContentDisposition, &in.ContentEncoding, &in.ContentLanguage,
		&in.ServerSideEncryption, &in.SSEKMSKeyId, &in.StorageClass, &in.Tagging, &in.Metadata)
	created, err := s.client.CreateMultipartUpload(ctx, in)
	if err != nil {
		return "", fmt.Errorf("aws-s3: start the upload of %s: %w", key, err)
	}
	id := created.UploadId
	abort := func(cause error) error {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s3CleanupTimeout)
		defer cancel()
		if _, err := s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{Bucket: aws.String(s.cfg.Bucket),
			Key: aws.String(key), UploadId: id}); err != nil {
			return errors.Join(cause, fmt.Errorf("aws-s3: abort the upload of %s: %w", key, err))
		}
		return cause
	}
	partSize := int64(s3PartSize)
	for (size+partSize-1)/partSize > s3MaxParts {
		partSize *= 2
	}
	n := int((size + partSize - 1) / partSize)
	parts := make([]types.CompletedPart, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s3PartsAtOnce)
	for i := range n {
		off := int64(i) * partSize
		length := min(partSize, size-off)
		g.Go(func() error {
			num := aws.Int32(int32(i + 1))
			out, err := s.client.UploadPart(gctx, &s3.UploadPartInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(key),
				UploadId: id, PartNumber: num, Body: io.NewSectionReader(f, off, length), ContentLength: aws.Int64(length)})
			if err != nil {
				return fmt.Errorf("aws-s3: upload part %d of %s: %w", i+1, key, err)
			}
			parts[i] = types.CompletedPart{ETag: out.ETag, PartNumber: num}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return "", abort(err)
	}
	done, err := s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: aws.String(s.cfg.Bucket),
		Key: aws.String(key), UploadId: id, MultipartUpload: &types.CompletedMultipartUpload{Parts: parts}})
	if err != nil {
		return "", abort(fmt.Errorf("aws-s3: complete the upload of %s: %w", key, err))
	}
	loc := aws.ToString(done.Location)
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
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.cfg.Bucket), Key: aws.String(key)}); err != nil {
		return fmt.Errorf("aws-s3: delete %s: %w", key, err)
	}
	return nil
}

// abortStale aborts the multipart uploads under the key prefix that were started before
// cutoff: what a process killed in the middle of an upload leaves in the bucket (parts no
// object is made of, billed all the same). Other instances' uploads in progress are younger.
func (s *s3Storage) abortStale(ctx context.Context, cutoff time.Time) (int, error) {
	pages := s3.NewListMultipartUploadsPaginator(s.client, &s3.ListMultipartUploadsInput{
		Bucket: aws.String(s.cfg.Bucket), Prefix: aws.String(s.cfg.KeyPrefix)})
	n := 0
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return n, fmt.Errorf("aws-s3: list unfinished uploads: %w", err)
		}
		for _, u := range page.Uploads {
			if u.Initiated == nil || !u.Initiated.Before(cutoff) {
				continue
			}
			if _, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: aws.String(s.cfg.Bucket),
				Key: u.Key, UploadId: u.UploadId}); err != nil {
				return n, fmt.Errorf("aws-s3: abort the unfinished upload of %s: %w", aws.ToString(u.Key), err)
			}
			n++
		}
	}
	return n, nil
}
