package api

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/gofiber/fiber/v3"
)

// testUI is a built app in miniature: an index.html as Vite writes it (entry
// script, modulepreload, stylesheet), hashed assets, a file at the root and
// an image.
var testUI = fstest.MapFS{
	"index.html": {Data: []byte(`<!doctype html><html><head><title>Kudos</title>
<script type="module" crossorigin src="/assets/index-Bv5YExwf.js"></script>
<link rel="modulepreload" crossorigin href="/assets/forms-Cm2vPfgg.js">
<link rel="stylesheet" crossorigin href="/assets/index-Bn1wyPaB.css">
</head><body>` + strings.Repeat("<!-- padding -->", 100) + `</body></html>`)},
	"assets/index-Bv5YExwf.js":  {Data: []byte(strings.Repeat("console.log('kudos');\n", 200))},
	"assets/forms-Cm2vPfgg.js":  {Data: []byte(strings.Repeat("export const f = 1;\n", 200))},
	"assets/index-Bn1wyPaB.css": {Data: []byte(strings.Repeat(".a{color:red}\n", 200))},
	"favicon.svg":               {Data: []byte("<svg xmlns='http://www.w3.org/2000/svg'>" + strings.Repeat("<g/>", 400) + "</svg>")},
	"assets/logo-abc.png":       {Data: bytes.Repeat([]byte{0x89}, 4096)},
}

// uiApp serves testUI with every variant compressed (brotli included).
func uiApp(t *testing.T) *fiber.App {
	t.Helper()
	s := &Server{UI: testUI, Log: slog.New(slog.DiscardHandler)}
	files := loadUI(testUI)
	files.compressBrotli()
	app := fiber.New()
	s.mountUI(app, files)
	return app
}

type uiResponse struct {
	status int
	header map[string]string
	body   []byte
}

func uiGet(t *testing.T, app *fiber.App, path string, kv ...string) uiResponse {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	res, err := app.Test(req, fiber.TestConfig{Timeout: 30 * time.Second}) // Fiber's second is too short under -race on a busy machine
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	h := map[string]string{}
	for k := range res.Header {
		h[k] = res.Header.Get(k)
	}
	return uiResponse{res.StatusCode, h, body}
}

// decode undoes a Content-Encoding.
func decode(t *testing.T, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch encoding {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	default:
		t.Fatalf("unexpected Content-Encoding %q", encoding)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", encoding, err)
	}
	return plain
}

// TestUIContentNegotiation: brotli beside gzip, chosen by Accept-Encoding
// with its qualities (q=0 refuses a coding, * stands for the codings not
// named, the client's preference wins, brotli on a tie), and the body
// decodes to the file.
func TestUIContentNegotiation(t *testing.T) {
	t.Parallel()
	app := uiApp(t)
	js := testUI["assets/index-Bv5YExwf.js"].Data
	for _, c := range []struct{ accept, want string }{
		{"gzip, deflate, br", "br"},
		{"br;q=1.0, gzip;q=0.5", "br"},
		{"br;q=0.5, gzip;q=1.0", "gzip"},
		{"gzip", "gzip"},
		{"GZip", "gzip"},
		{"x-gzip", "gzip"},
		{"br", "br"},
		{"zstd, gzip;q=0.5", "gzip"},
		{"", ""},
		{"identity", ""},
		{"deflate", ""},
		{"gzip;q=0", ""},
		{"gzip; q=0.000", ""},
		{"gzip;q=0.001", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"*", "br"},
		{"*;q=0", ""},
		{"gzip;q=0, *", "br"},
		{"br;q=0, *", "gzip"},
		{"*, br;q=0, gzip;q=0", ""},
		{"*;q=0.1, gzip;q=0.5", "gzip"},
		{"br;q=0", ""},
	} {
		r := uiGet(t, app, "/assets/index-Bv5YExwf.js", "Accept-Encoding", c.accept)
		if r.status != 200 || r.header["Content-Encoding"] != c.want {
			t.Errorf("Accept-Encoding %q: %d, Content-Encoding %q, want %q", c.accept, r.status, r.header["Content-Encoding"], c.want)
			continue
		}
		if !strings.Contains(r.header["Vary"], "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: Vary %q", c.accept, r.header["Vary"])
		}
		if plain := decode(t, c.want, r.body); !bytes.Equal(plain, js) {
			t.Errorf("Accept-Encoding %q: the body is not the file (%d bytes decoded)", c.accept, len(plain))
		}
		if c.want != "" && len(r.body) >= len(js) {
			t.Errorf("Accept-Encoding %q: %d bytes for %d", c.accept, len(r.body), len(js))
		}
	}
	// A deep link is index.html, compressed alike; an image never is.
	if r := uiGet(t, app, "/dashboard/x/billing", "Accept-Encoding", "gzip, br"); r.header["Content-Encoding"] != "br" ||
		!strings.Contains(string(decode(t, "br", r.body)), "<title>Kudos</title>") {
		t.Errorf("deep link: %q", r.header["Content-Encoding"])
	}
	if r := uiGet(t, app, "/assets/logo-abc.png", "Accept-Encoding", "gzip, br"); r.header["Content-Encoding"] != "" {
		t.Errorf("png compressed: %q", r.header["Content-Encoding"])
	}
}

// TestUIServesGzipUntilBrotliIsReady: brotli is made after the server
// starts; until then a brotli-capable browser gets gzip, not a wait.
func TestUIServesGzipUntilBrotliIsReady(t *testing.T) {
	t.Parallel()
	s := &Server{UI: testUI, Log: slog.New(slog.DiscardHandler)}
	files := loadUI(testUI)
	app := fiber.New()
	s.mountUI(app, files)
	if r := uiGet(t, app, "/assets/index-Bv5YExwf.js", "Accept-Encoding", "br, gzip"); r.header["Content-Encoding"] != "gzip" {
		t.Fatalf("before brotli: %q, want gzip", r.header["Content-Encoding"])
	}
	files.compressBrotli()
	if r := uiGet(t, app, "/assets/index-Bv5YExwf.js", "Accept-Encoding", "br, gzip"); r.header["Content-Encoding"] != "br" {
		t.Fatalf("after brotli: %q, want br", r.header["Content-Encoding"])
	}
}

// TestUICacheControl: hashed assets are immutable for a year; index.html,
// under any path, is revalidated every time; other files and a missing
// asset are not marked immutable.
func TestUICacheControl(t *testing.T) {
	t.Parallel()
	app := uiApp(t)
	const immutable = "public, max-age=31536000, immutable"
	for _, p := range []string{"/assets/index-Bv5YExwf.js", "/assets/index-Bn1wyPaB.css", "/assets/logo-abc.png"} {
		if r := uiGet(t, app, p, "Accept-Encoding", "br"); r.status != 200 || r.header["Cache-Control"] != immutable {
			t.Errorf("%s: %d, Cache-Control %q", p, r.status, r.header["Cache-Control"])
		}
	}
	for _, p := range []string{"/", "/index.html", "/signin", "/dashboard/x/billing"} {
		if r := uiGet(t, app, p); r.status != 200 || r.header["Cache-Control"] != "no-cache" {
			t.Errorf("%s: %d, Cache-Control %q", p, r.status, r.header["Cache-Control"])
		}
	}
	if r := uiGet(t, app, "/favicon.svg"); r.status != 200 || strings.Contains(r.header["Cache-Control"], "immutable") {
		t.Errorf("/favicon.svg (not hashed): %d, Cache-Control %q", r.status, r.header["Cache-Control"])
	}
	if r := uiGet(t, app, "/assets/missing-abc.js"); r.status != 404 || strings.Contains(r.header["Cache-Control"], "immutable") {
		t.Errorf("missing asset: %d, Cache-Control %q", r.status, r.header["Cache-Control"])
	}
}

// TestUIPreloadHints: index.html, under any path, comes with a Link header
// that names the entry chunk and the chunks and stylesheet it needs, so the
// browser (or a proxy sending 103 Early Hints) fetches them before parsing
// the page; assets carry no such header.
func TestUIPreloadHints(t *testing.T) {
	t.Parallel()
	app := uiApp(t)
	for _, p := range []string{"/", "/dashboard/x/billing"} {
		link := uiGet(t, app, p).header["Link"]
		for _, want := range []string{
			"</assets/index-Bv5YExwf.js>; rel=modulepreload; crossorigin",
			"</assets/forms-Cm2vPfgg.js>; rel=modulepreload; crossorigin",
			"</assets/index-Bn1wyPaB.css>; rel=preload; as=style; crossorigin",
		} {
			if !strings.Contains(link, want) {
				t.Errorf("%s: Link %q lacks %q", p, link, want)
			}
		}
		if strings.Index(link, "index-Bv5YExwf.js") > strings.Index(link, "forms-Cm2vPfgg.js") {
			t.Errorf("%s: the entry chunk is not first in Link %q", p, link)
		}
	}
	if link := uiGet(t, app, "/assets/index-Bv5YExwf.js").header["Link"]; link != "" {
		t.Errorf("an asset carries Link %q", link)
	}
}
