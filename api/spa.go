package api

import (
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// registerUI serves the built single-page app: real files as they are (hashed
// assets cached for a year), and index.html for every other GET that is not
// an API path, so that deep links such as /dashboard/<id>/billing load the app.
func (s *Server) registerUI(app *fiber.App) {
	if s.UI == nil {
		return
	}
	index, err := fs.ReadFile(s.UI, "index.html")
	if err != nil {
		s.Log.Warn("the UI is not built: / will answer 404 (run make ui)")
		return
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
				return c.Send(data)
			}
			if path.Ext(name) != "" && strings.HasPrefix(name, "assets/") {
				return fiber.ErrNotFound // a missing asset is not the app
			}
		}
		c.Set(fiber.HeaderCacheControl, "no-cache")
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		return c.Send(index)
	})
}
