package kudos

import (
	"context"
	"io"
	"time"
)

// ObjectInfo describes a stored object.
type ObjectInfo struct {
	Size        int64
	ContentType string
}

// ObjectStorage is where files live (invoice PDFs, logos): any S3 in
// production, an in-process S3-compatible server in development and tests.
type ObjectStorage interface {
	// Put stores body under key.
	Put(ctx context.Context, key string, body []byte, contentType string) error
	// Open streams an object; the caller closes it. A missing key is ENotFound.
	Open(ctx context.Context, key string) (io.ReadCloser, ObjectInfo, error)
	// Stat returns an object's size and type without reading it (ENotFound
	// when missing).
	Stat(ctx context.Context, key string) (ObjectInfo, error)
	// Delete removes an object; a missing one is not an error.
	Delete(ctx context.Context, key string) error
	// PresignPut returns a URL the browser can PUT the object to, for ttl,
	// only with that content type and a body of exactly size bytes.
	PresignPut(ctx context.Context, key, contentType string, size int64, ttl time.Duration) (string, error)
	// PresignGet returns a URL that downloads the object for ttl, served as
	// an attachment named filename.
	PresignGet(ctx context.Context, key, filename string, ttl time.Duration) (string, error)
	// PublicURL is the address of an object under the public prefix (a CDN
	// in production).
	PublicURL(key string) string
}
