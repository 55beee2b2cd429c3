package logoimage_test

import (
	"bytes"
	"image/jpeg"
	"image/png"
	"runtime"
	"testing"

	"kudos"
	"kudos/internal/testimages"
	"kudos/logoimage"
)

// withPNGText puts a tEXt chunk (metadata) right after the header.
func withPNGText(data []byte, text string) []byte {
	const afterIHDR = 8 + 25
	out := append([]byte{}, data[:afterIHDR]...)
	out = append(out, testimages.Chunk("tEXt", []byte("Comment\x00"+text))...)
	return append(out, data[afterIHDR:]...)
}

// withJPEGExif puts an APP1 Exif segment right after the SOI marker.
func withJPEGExif(data []byte, text string) []byte {
	payload := append([]byte("Exif\x00\x00"), text...)
	seg := []byte{0xff, 0xe1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	out := append([]byte{}, data[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, data[2:]...)
}

func TestProcessPNGScalesKeepsAlphaAndDropsMetadata(t *testing.T) {
	in := withPNGText(testimages.PNG(testimages.Gradient(1200, 600)), "GPS 50.85N 4.35E")
	res, err := logoimage.Process(in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != logoimage.PNG || res.Width != kudos.LogoMaxSide || res.Height != kudos.LogoMaxSide/2 {
		t.Fatalf("got %s %d×%d", res.Format, res.Width, res.Height)
	}
	img, err := png.Decode(bytes.NewReader(res.Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != res.Width || b.Dy() != res.Height {
		t.Fatalf("encoded %v", b)
	}
	if _, _, _, a := img.At(0, 0).RGBA(); a == 0xffff {
		t.Error("transparency lost")
	}
	if bytes.Contains(res.Data, []byte("tEXt")) || bytes.Contains(res.Data, []byte("GPS")) {
		t.Error("metadata survived re-encoding")
	}
	again, _ := logoimage.Process(in)
	if !bytes.Equal(again.Data, res.Data) {
		t.Error("the same upload gave different bytes: a retried publication would differ")
	}
}

func TestProcessJPEGDropsExifAndKeepsSmallImagesSmall(t *testing.T) {
	in := withJPEGExif(testimages.JPEG(testimages.Gradient(300, 400)), "Camera serial 123")
	if _, err := jpeg.Decode(bytes.NewReader(in)); err != nil {
		t.Fatalf("test input is not a JPEG: %v", err)
	}
	res, err := logoimage.Process(in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != logoimage.JPEG || res.Width != 300 || res.Height != 400 {
		t.Fatalf("got %s %d×%d", res.Format, res.Width, res.Height)
	}
	if bytes.Contains(res.Data, []byte("Exif")) || bytes.Contains(res.Data, []byte("serial")) {
		t.Error("EXIF survived re-encoding")
	}
	if res.Format.ContentType() != "image/jpeg" || res.Format.Ext() != ".jpg" {
		t.Error(res.Format.ContentType(), res.Format.Ext())
	}
}

func TestPortraitIsScaledByItsHeight(t *testing.T) {
	res, err := logoimage.Process(testimages.PNG(testimages.Gradient(100, 2000)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Width != 25 || res.Height != kudos.LogoMaxSide {
		t.Fatalf("%d×%d", res.Width, res.Height)
	}
}

func TestRefusals(t *testing.T) {
	valid := testimages.JPEG(testimages.Gradient(64, 64))
	tooLarge := make([]byte, kudos.LogoMaxBytes+1)
	copy(tooLarge, testimages.PNG(testimages.Gradient(8, 8)))
	cases := []struct {
		name, reason string
		data         []byte
	}{
		{"an SVG named .png", kudos.LogoNotAnImage, []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)},
		{"a text file", kudos.LogoNotAnImage, []byte("hello, this is not an image\n")},
		{"a GIF", kudos.LogoNotAnImage, []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")},
		{"empty", kudos.LogoNotAnImage, nil},
		{"10 MB + 1 byte", kudos.LogoTooLarge, tooLarge},
		{"a truncated JPEG", kudos.LogoUnreadable, valid[:len(valid)/2]},
		{"a JPEG cut in its header", kudos.LogoUnreadable, valid[:20]},
		{"a PNG signature only", kudos.LogoUnreadable, []byte("\x89PNG\r\n\x1a\n")},
		{"a PNG header claiming 100000×100000", kudos.LogoTooManyPixels, testimages.BombPNG(100000, 100000)},
		{"a PNG header one pixel over the limit", kudos.LogoTooManyPixels, testimages.BombPNG(4001, 4000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := logoimage.Process(c.data)
			if got := logoimage.ReasonOf(err); got != c.reason {
				t.Fatalf("reason %q (%v), want %q", got, err, c.reason)
			}
		})
	}
}

// A decompression bomb is refused from its header: checking it allocates
// nearly nothing, where decoding would take 40 GB.
func TestBombIsRefusedWithoutDecoding(t *testing.T) {
	bomb := testimages.BombPNG(100000, 100000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := logoimage.Process(bomb)
	runtime.ReadMemStats(&after)
	if logoimage.ReasonOf(err) != kudos.LogoTooManyPixels {
		t.Fatal(err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 1<<20 {
		t.Fatalf("checking the bomb allocated %d bytes", allocated)
	}
}

func TestSniff(t *testing.T) {
	for in, want := range map[string]logoimage.Format{"\x89PNG\r\n\x1a\nrest": logoimage.PNG, "\xff\xd8\xff\xe0": logoimage.JPEG} {
		if f, ok := logoimage.Sniff([]byte(in)); !ok || f != want {
			t.Errorf("%q: %s %v", in, f, ok)
		}
	}
	for _, in := range []string{"", "\x89PNG", "\xff\xd8", "<svg", "%PDF-1.7"} {
		if f, ok := logoimage.Sniff([]byte(in)); ok {
			t.Errorf("%q sniffed as %s", in, f)
		}
	}
}

// FuzzInspect feeds arbitrary bytes to the header check: it never panics,
// accepts only PNG or JPEG within the pixel limit, and refuses everything
// else with one of the known reasons.
func FuzzInspect(f *testing.F) {
	f.Add(testimages.PNG(testimages.Gradient(3, 2)))
	f.Add(testimages.JPEG(testimages.Gradient(3, 2)))
	f.Add(testimages.BombPNG(100000, 100000))
	f.Add([]byte("<svg/>"))
	f.Add([]byte("\xff\xd8\xff\xc0\x00\x11\x08\xff\xff\xff\xff\x03"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := logoimage.Inspect(data)
		if err != nil {
			switch logoimage.ReasonOf(err) {
			case kudos.LogoNotAnImage, kudos.LogoUnreadable, kudos.LogoTooManyPixels, kudos.LogoTooLarge:
			default:
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if f, _ := logoimage.Sniff(data); f != h.Format {
			t.Fatalf("format %s, sniffed %s", h.Format, f)
		}
		if h.Width <= 0 || h.Height <= 0 || int64(h.Width)*int64(h.Height) > kudos.LogoMaxPixels {
			t.Fatalf("accepted %d×%d", h.Width, h.Height)
		}
	})
}
