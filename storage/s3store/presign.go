package s3store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// maxPresignTTL is the longest validity S3 accepts for a SigV4 presigned URL.
const maxPresignTTL = 7 * 24 * time.Hour

// PresignPut returns a URL the browser can PUT the object to during ttl. The
// Content-Type and Content-Length headers are part of the signature, so the
// upload must carry exactly contentType and size bytes or S3 refuses it
// (without a signed length a link would take up to 5 GB).
func (s *Store) PresignPut(ctx context.Context, key, contentType string, size int64, ttl time.Duration) (string, error) {
	if err := checkTTL(ttl); err != nil {
		return "", err
	} else if contentType == "" {
		return "", fmt.Errorf("s3store: presign put %q: no content type", key)
	} else if size <= 0 {
		return "", fmt.Errorf("s3store: presign put %q: size %d", key, size)
	}
	req, err := s.presign.PresignPutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           aws.String(key),
		ContentType:   aws.String(contentType),
		ContentLength: aws.Int64(size),
	}, s3.WithPresignExpires(ttl), withSignedHeader("Content-Type", contentType),
		withSignedHeader("Content-Length", strconv.FormatInt(size, 10)))
	if err != nil {
		return "", fmt.Errorf("s3store: presign put %q: %w", key, err)
	}
	return req.URL, nil
}

// PresignGet returns a URL that downloads the object during ttl; S3 serves it
// as an attachment named filename.
func (s *Store) PresignGet(ctx context.Context, key, filename string, ttl time.Duration) (string, error) {
	if err := checkTTL(ttl); err != nil {
		return "", err
	}
	req, err := s.presign.PresignGetObject(ctx, &s3.GetObjectInput{
		Bucket:                     aws.String(s.bucket),
		Key:                        aws.String(key),
		ResponseContentDisposition: aws.String(attachment(filename)),
	}, s3.WithPresignExpires(ttl))
	if err != nil {
		return "", fmt.Errorf("s3store: presign get %q: %w", key, err)
	}
	return req.URL, nil
}

func checkTTL(ttl time.Duration) error {
	if ttl <= 0 || ttl > maxPresignTTL {
		return fmt.Errorf("s3store: presign ttl %s outside (0, 7d]", ttl)
	}
	return nil
}

// withSignedHeader puts a header back on the request just before it is
// presigned. The SDK drops Content-Type from a presigned PutObject that has no
// Content-Length (aws-sdk-go-v2 issues #1475, #2063), which would let the
// browser upload any type; the length is put back the same way.
func withSignedHeader(name, value string) func(*s3.PresignOptions) {
	mw := middleware.FinalizeMiddlewareFunc("KudosSignedHeader"+name,
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (
			middleware.FinalizeOutput, middleware.Metadata, error,
		) {
			if req, ok := in.Request.(*smithyhttp.Request); ok {
				req.Header.Set(name, value)
			}
			return next.HandleFinalize(ctx, in)
		})
	return func(o *s3.PresignOptions) {
		o.ClientOptions = append(o.ClientOptions, func(o *s3.Options) {
			o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
				return stack.Finalize.Add(mw, middleware.Before)
			})
		})
	}
}

// attachment is the Content-Disposition of a download named filename. Quotes,
// backslashes and control characters would break out of the quoted string, so
// they become "_"; a name outside ASCII is also given as RFC 6266 filename*.
func attachment(filename string) string {
	var plain strings.Builder
	ascii := true
	for _, r := range filename {
		switch {
		case r > 0x7e:
			ascii = false
			plain.WriteByte('_')
		case r < 0x20 || r == 0x7f || r == '"' || r == '\\':
			plain.WriteByte('_')
		default:
			plain.WriteRune(r)
		}
	}
	cd := `attachment; filename="` + plain.String() + `"`
	if !ascii {
		cd += "; filename*=UTF-8''" + encodeExtValue(filename)
	}
	return cd
}

// encodeExtValue percent-encodes s except for RFC 5987 attr-chars.
func encodeExtValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
