// Package s3store keeps Kudos' files (invoice PDFs, logos) in any
// S3-compatible object storage through aws-sdk-go-v2: AWS itself in
// production, the in-process stand-in of devstack in development and tests.
package s3store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"kudos"
	"kudos/tracing"
)

// Config says where the bucket lives and how to reach it.
type Config struct {
	// Endpoint is the base URL of an S3-compatible server
	// ("http://127.0.0.1:9000"); empty means AWS itself.
	Endpoint string
	// Region signs the requests; with a custom Endpoint and no Region,
	// us-east-1 is used.
	Region string
	// Bucket holds every object of the application.
	Bucket string
	// AccessKeyID and SecretAccessKey are static credentials; when empty the
	// default AWS chain (environment, shared files, instance role) is used.
	AccessKeyID     string
	SecretAccessKey string
	// PathStyle addresses objects as endpoint/bucket/key instead of
	// bucket.endpoint/key, as most self-hosted servers need.
	PathStyle bool
	// PublicBaseURL is where objects under the public prefix are served from,
	// e.g. https://cdn.example.com; PublicURL(key) is PublicBaseURL + "/" + key.
	PublicBaseURL string
}

// Store is a kudos.ObjectStorage on one S3 bucket.
type Store struct {
	client        *s3.Client
	presign       *s3.PresignClient
	bucket        string
	region        string
	publicBaseURL string
}

var _ kudos.ObjectStorage = (*Store)(nil)

// New makes a Store from cfg. It does not contact the server; call
// EnsureBucket in development to create the bucket.
func New(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Bucket == "" {
		return nil, errors.New("s3store: no bucket configured")
	}
	region := cfg.Region
	if region == "" && cfg.Endpoint != "" {
		region = "us-east-1"
	}
	var opts []func(*config.LoadOptions) error
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	if cfg.AccessKeyID != "" || cfg.SecretAccessKey != "" {
		opts = append(opts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, "")))
	}
	if cfg.Endpoint != "" {
		// S3-compatible servers vary in their support of the newer flexible
		// checksums; send and check them only where the API demands them.
		opts = append(opts,
			config.WithRequestChecksumCalculation(aws.RequestChecksumCalculationWhenRequired),
			config.WithResponseChecksumValidation(aws.ResponseChecksumValidationWhenRequired))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("s3store: load AWS configuration: %w", err)
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		// Each S3 call is a span of the caller's trace (tracing.Transport),
		// sent by the client the configuration built (its pool, timeouts
		// and custom CA bundle).
		o.HTTPClient = &http.Client{Transport: tracing.Transport("s3", clientTransport{awsCfg.HTTPClient})}
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		o.UsePathStyle = cfg.PathStyle
	})
	return &Store{
		client:        client,
		presign:       s3.NewPresignClient(client),
		bucket:        cfg.Bucket,
		region:        awsCfg.Region,
		publicBaseURL: strings.TrimRight(cfg.PublicBaseURL, "/"),
	}, nil
}

// Put stores body under key with the given content type.
func (s *Store) Put(ctx context.Context, key string, body []byte, contentType string) error {
	_, err := s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           aws.String(key),
		Body:          bytes.NewReader(body),
		ContentLength: aws.Int64(int64(len(body))),
		ContentType:   nonEmpty(contentType),
	})
	if err != nil {
		return wrapErr("put", key, err)
	}
	return nil
}

// Open streams an object; the caller closes the reader. A missing key is
// kudos.ENotFound.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, kudos.ObjectInfo, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{
		Bucket: aws.String(s.bucket),
		Key:    aws.String(key),
	})
	if err != nil {
		return nil, kudos.ObjectInfo{}, wrapErr("get", key, err)
	}
	info := kudos.ObjectInfo{Size: aws.ToInt64(out.ContentLength), ContentType: aws.ToString(out.ContentType)}
	return out.Body, info, nil
}

// Stat returns an object's size and content type without reading it; a
// missing key is kudos.ENotFound.
func (s *Store) Stat(ctx context.Context, key string) (kudos.ObjectInfo, error) {
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{
		Bucket: aws.String(s.bucket),
		Key:    aws.String(key),
	})
	if err != nil {
		return kudos.ObjectInfo{}, wrapErr("head", key, err)
	}
	return kudos.ObjectInfo{Size: aws.ToInt64(out.ContentLength), ContentType: aws.ToString(out.ContentType)}, nil
}

// Delete removes an object; deleting a missing one succeeds, as in S3.
func (s *Store) Delete(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{
		Bucket: aws.String(s.bucket),
		Key:    aws.String(key),
	})
	if err = wrapErr("delete", key, err); kudos.ErrorCode(err) == kudos.ENotFound {
		return nil
	}
	return err
}

// List returns the keys under prefix, in key order (every page). Tests and
// operations use it to find orphaned objects.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, wrapErr("list", prefix, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys, nil
}

// PublicURL is the address of an object under the public prefix: the
// configured PublicBaseURL followed by the key, each segment escaped.
func (s *Store) PublicURL(key string) string {
	segs := strings.Split(key, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return s.publicBaseURL + "/" + strings.Join(segs, "/")
}

// EnsureBucket creates the bucket unless it exists already. It is meant for
// development, where the local server starts empty; production buckets are
// provisioned with their policies outside the application.
func (s *Store) EnsureBucket(ctx context.Context) error {
	_, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(s.bucket)})
	if err == nil {
		return nil
	} else if !isNotFound(err) {
		return fmt.Errorf("s3store: head bucket %q: %w", s.bucket, err)
	}
	in := &s3.CreateBucketInput{Bucket: aws.String(s.bucket)}
	if s.region != "" && s.region != "us-east-1" {
		in.CreateBucketConfiguration = &types.CreateBucketConfiguration{
			LocationConstraint: types.BucketLocationConstraint(s.region),
		}
	}
	if _, err := s.client.CreateBucket(ctx, in); err != nil && !isAlreadyOwned(err) {
		return fmt.Errorf("s3store: create bucket %q: %w", s.bucket, err)
	}
	return nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// clientTransport sends requests with an AWS HTTP client (an
// http.RoundTripper on its Do), for otelhttp to wrap.
type clientTransport struct{ c aws.HTTPClient }

// RoundTrip implements http.RoundTripper.
func (t clientTransport) RoundTrip(r *http.Request) (*http.Response, error) { return t.c.Do(r) }
