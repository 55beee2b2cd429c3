package logoimage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/png"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"kudos"
	"kudos/internal/testimages"
)

// png16 is a w×h 16-bit RGBA PNG of one colour: tiny on disk, 8 bytes a
// pixel once decoded.
func png16(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA64(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 8 {
		copy(img.Pix[i:], []byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xff, 0xff})
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// progressiveCMYKHeader is the start of a w×h progressive JPEG with four
// components at full resolution: enough for the header checks.
func progressiveCMYKHeader(w, h int) []byte {
	sof := []byte{0xff, 0xc2, 0, 8 + 3*4, 8, 0, 0, 0, 0, 4}
	binary.BigEndian.PutUint16(sof[5:], uint16(h))
	binary.BigEndian.PutUint16(sof[7:], uint16(w))
	for c := byte(1); c <= 4; c++ {
		sof = append(sof, c, 0x11, 0)
	}
	sos := []byte{0xff, 0xda, 0, 12, 4, 1, 0, 2, 0x11, 3, 0x11, 4, 0x11, 0, 63, 0}
	return append(append([]byte{0xff, 0xd8}, sof...), sos...)
}

// allocated returns the most heap f holds at once above what was live
// before: sampled every few milliseconds, with the collector eager so that
// short-lived garbage does not count as held.
func allocated(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base, peak := m.HeapAlloc, m.HeapAlloc
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		p := peak
		for {
			var s runtime.MemStats
			runtime.ReadMemStats(&s)
			p = max(p, s.HeapAlloc)
			select {
			case <-done:
				sampled <- p
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	runtime.ReadMemStats(&m)
	close(done)
	peak = max(<-sampled, m.HeapAlloc)
	return peak - base
}

// TestDecodeMemoryIsBounded: within the pixel limit, an image whose decode
// would take more than MaxDecodeBytes is refused from its header (issue 15:
// a 130 KB 4000×4000 16-bit PNG took 187 MiB, a progressive CMYK JPEG about
// 320 MB), and what is accepted decodes within the bound.
func TestDecodeMemoryIsBounded(t *testing.T) {
	for name, data := range map[string][]byte{
		"16-bit PNG 4000×4000":            png16(t, 4000, 4000),
		"progressive CMYK JPEG 4000×4000": progressiveCMYKHeader(4000, 4000),
	} {
		var err error
		used := allocated(func() { _, err = Process(data) })
		var r *Refusal
		if !errors.As(err, &r) || r.Reason != kudos.LogoTooManyPixels {
			t.Errorf("%s (%d KB): %v, want a too_many_pixels refusal", name, len(data)>>10, err)
		}
		if used > 4<<20 {
			t.Errorf("%s: refusing it allocated %d MiB", name, used>>20)
		}
	}
	// The largest 16-bit PNG within the bound decodes within it.
	data := png16(t, 3400, 3400)
	var err error
	used := allocated(func() { _, err = Process(data) })
	if err != nil {
		t.Fatalf("3400×3400 16-bit PNG: %v", err)
	}
	if used > MaxDecodeBytes+ScaleBytes {
		t.Fatalf("processing took %d MiB, bound %d MiB", used>>20, (MaxDecodeBytes+ScaleBytes)>>20)
	}
	// However thin the strip, scaling stays within its bound.
	strip := image.NewGray(image.Rect(0, 0, 2, 4_000_000))
	if used := allocated(func() { scaleToFit(strip, kudos.LogoMaxSide) }); used > ScaleBytes {
		t.Fatalf("scaling a 2×4M strip took %d MiB, bound %d MiB", used>>20, ScaleBytes>>20)
	}
	// An ordinary 16-megapixel RGBA PNG is still accepted.
	if h, err := Inspect(testimages.BombPNG(4000, 4000)); err != nil || h.DecodeBytes > MaxDecodeBytes {
		t.Fatalf("4000×4000 RGBA: %+v %v", h, err)
	}
}
