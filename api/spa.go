package api

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"path"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// registerUI serves the built single-page app: real files (hashed assets
// cached for a year), and index.html for every other GET that is not an API
// path, so that deep links such as /dashboard/<id>/billing load the app.
// Text files are gzipped once here and sent compressed to browsers that
// accept it: about a third of the bytes on the wire.
func (s *Server) registerUI(app *fiber.App) {
	if s.UI == nil {
		return
	}
	index, err := fs.ReadFile(s.UI, "index.html")
	if err != nil {
		s.Log.Warn("the UI is not built: / will answer 404 (run make ui)")
		return
	}
	gzipped := gzipUI(s.UI)
	send := func(c fiber.Ctx, name string, data []byte) error {
		c.Vary(fiber.HeaderAcceptEncoding)
		if gz, ok := gzipped[name]; ok && acceptsGzip(c.Get(fiber.HeaderAcceptEncoding)) {
			c.Set(fiber.HeaderContentEncoding, "gzip")
			return c.Send(gz)
		}
		return c.Send(data)
	}
	app.Get("/*", func(c fiber.Ctx) error {
		p := c.Path()
		if isAPIPath(p) {
			return fiber.ErrNotFound
		}
		name := strings.TrimPrefix(path.Clean(p), "/")
		if name != "" && name != "index.html" {
			if data, err := fs.ReadFile(s.UI, name); err == nil {
				if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
					c.Set(fiber.HeaderContentType, ct)
				}
				if strings.HasPrefix(name, "assets/") {
					c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
				}
				return send(c, name, data)
			}
			if path.Ext(name) != "" && strings.HasPrefix(name, "assets/") {
				return fiber.ErrNotFound // a missing asset is not the app
			}
		}
		c.Set(fiber.HeaderCacheControl, "no-cache")
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		return send(c, "index.html", index)
	})
}

// gzipMinSize is the smallest file worth compressing.
const gzipMinSize = 1024

// gzipUI compresses every text file of the UI (by name) that gets smaller.
func gzipUI(ui fs.FS) map[string][]byte {
	out := map[string][]byte{}
	_ = fs.WalkDir(ui, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch path.Ext(name) {
		case ".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt", ".map", ".webmanifest":
		default:
			return nil
		}
		data, err := fs.ReadFile(ui, name)
		if err != nil || len(data) < gzipMinSize {
			return nil
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = zw.Write(data)
		if zw.Close() == nil && b.Len() < len(data) {
			out[name] = b.Bytes()
		}
		return nil
	})
	return out
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) with a non-zero
// quality.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := 1.0
		if k, v, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.TrimSpace(k) == "q" {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				q = f
			}
		}
		return q > 0
	}
	return false
}
