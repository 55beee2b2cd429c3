// Package s3local holds what the development S3 stand-in (devstack.StartS3)
// needs beyond gofakes3: a backend that keeps objects in a directory, and
// SigV4 verification, which gofakes3 does not do. Nothing here runs in
// production.
package s3local

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// File suffixes of an object's body and of its metadata (JSON).
const (
	dataSuffix = ".data"
	metaSuffix = ".meta"
)

// DirBackend is a gofakes3 backend whose objects survive a restart: every
// write goes to an in-memory s3mem backend, which serves reads, listings and
// ranges, and then to dir/<bucket>/<escaped key>.data and .meta. On start the
// directory is loaded back into memory, which suits development volumes.
// Versioning and native multipart are not offered, so gofakes3 assembles
// multipart uploads itself and stores them with PutObject.
//
// It stands in for gofakes3's s3afero, whose spf13/afero module was not in
// this project's go.sum when this was written, and which maps keys to nested
// paths: S3 allows both "a" and "a/b", a file system does not. Here every key
// is one escaped file name and files are replaced atomically.
type DirBackend struct {
	gofakes3.Backend // the s3mem backend; writes are overridden below

	dir string
	mu  sync.Mutex // orders memory and disk writes so the disk keeps the last
}

var _ gofakes3.Backend = (*DirBackend)(nil)

// NewDirBackend opens (creating if needed) dir and loads what it holds.
func NewDirBackend(dir string) (*DirBackend, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	b := &DirBackend{Backend: s3mem.New(), dir: dir}
	buckets, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, bk := range buckets {
		if !bk.IsDir() {
			continue
		}
		if err := b.load(bk.Name()); err != nil {
			return nil, fmt.Errorf("s3local: load bucket %s: %w", bk.Name(), err)
		}
	}
	return b, nil
}

func (b *DirBackend) load(bucket string) error {
	if err := b.Backend.CreateBucket(bucket); err != nil {
		return err
	}
	files, err := os.ReadDir(filepath.Join(b.dir, bucket))
	if err != nil {
		return err
	}
	for _, f := range files {
		name, ok := strings.CutSuffix(f.Name(), metaSuffix)
		if !ok {
			continue
		}
		key, err := url.QueryUnescape(name)
		if err != nil {
			continue // not one of ours
		}
		raw, err := os.ReadFile(filepath.Join(b.dir, bucket, f.Name()))
		if err != nil {
			return err
		}
		meta := map[string]string{}
		if err := json.Unmarshal(raw, &meta); err != nil {
			return fmt.Errorf("%s: %w", f.Name(), err)
		}
		body, err := os.ReadFile(filepath.Join(b.dir, bucket, name+dataSuffix))
		if err != nil {
			return err
		}
		if _, err := b.Backend.PutObject(bucket, key, meta, bytes.NewReader(body), int64(len(body)), nil); err != nil {
			return err
		}
	}
	return nil
}

// objectPath is where key of bucket lives on disk, without suffix. Query
// escaping turns "/" into "%2F", so every key is one plain file name and no
// key can reach outside the bucket's directory.
func (b *DirBackend) objectPath(bucket, key string) string {
	return filepath.Join(b.dir, bucket, url.QueryEscape(key))
}

// CreateBucket creates the bucket in memory and its directory.
func (b *DirBackend) CreateBucket(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.Backend.CreateBucket(name); err != nil {
		return err
	}
	return os.MkdirAll(filepath.Join(b.dir, name), 0o755)
}

// DeleteBucket removes an empty bucket and its directory.
func (b *DirBackend) DeleteBucket(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.Backend.DeleteBucket(name); err != nil {
		return err
	}
	return os.RemoveAll(filepath.Join(b.dir, name))
}

// ForceDeleteBucket removes a bucket with its objects.
func (b *DirBackend) ForceDeleteBucket(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.Backend.ForceDeleteBucket(name); err != nil {
		return err
	}
	return os.RemoveAll(filepath.Join(b.dir, name))
}

// PutObject stores the object in memory, then writes body and metadata to
// files (each through a temporary file and a rename).
func (b *DirBackend) PutObject(bucket, key string, meta map[string]string, input io.Reader, size int64,
	conditions *gofakes3.PutConditions,
) (gofakes3.PutObjectResult, error) {
	body, err := gofakes3.ReadAll(input, size) // also surfaces a Content-MD5 mismatch
	if err != nil {
		return gofakes3.PutObjectResult{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	res, err := b.Backend.PutObject(bucket, key, meta, bytes.NewReader(body), int64(len(body)), conditions)
	if err != nil {
		return res, err
	}
	metaJSON, err := json.Marshal(meta) // s3mem merged the old metadata in
	if err != nil {
		return res, err
	}
	p := b.objectPath(bucket, key)
	if err := writeFile(p+dataSuffix, body); err != nil {
		return res, err
	}
	return res, writeFile(p+metaSuffix, metaJSON)
}

// CopyObject reads the source and puts it through PutObject, so the copy is
// written to disk too.
func (b *DirBackend) CopyObject(srcBucket, srcKey, dstBucket, dstKey string, meta map[string]string) (gofakes3.CopyObjectResult, error) {
	return gofakes3.CopyObject(b, srcBucket, srcKey, dstBucket, dstKey, meta)
}

// DeleteObject removes the object from memory and disk; a missing one is fine.
func (b *DirBackend) DeleteObject(bucket, key string) (gofakes3.ObjectDeleteResult, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	res, err := b.Backend.DeleteObject(bucket, key)
	if err != nil {
		return res, err
	}
	return res, b.removeFiles(bucket, key)
}

// DeleteMulti removes several objects from memory and disk.
func (b *DirBackend) DeleteMulti(bucket string, keys ...string) (gofakes3.MultiDeleteResult, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	res, err := b.Backend.DeleteMulti(bucket, keys...)
	if err != nil {
		return res, err
	}
	for _, d := range res.Deleted {
		if err := b.removeFiles(bucket, d.Key); err != nil {
			return res, err
		}
	}
	return res, nil
}

func (b *DirBackend) removeFiles(bucket, key string) error {
	p := b.objectPath(bucket, key)
	for _, f := range []string{p + dataSuffix, p + metaSuffix} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// writeFile replaces path atomically, so a crash never leaves half a file.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
