// Package logoimage turns an uploaded logo into the image Kudos publishes:
// it checks the bytes (size, magic bytes, the header's pixel count) before
// anything is decoded, then decodes, scales down to a bounded size and
// re-encodes, which drops every metadata chunk and segment (EXIF, text,
// colour profiles). Only PNG and JPEG are accepted, by content, whatever the
// file was called.
package logoimage

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/draw"

	"kudos"
)

// Format is an accepted image format.
type Format string

// The accepted formats.
const (
	PNG  Format = "png"
	JPEG Format = "jpeg"
)

// ContentType is the MIME type of the format.
func (f Format) ContentType() string { return "image/" + string(f) }

// Ext is the file extension of the format, with its dot.
func (f Format) Ext() string {
	if f == JPEG {
		return ".jpg"
	}
	return ".png"
}

// Refusal says why an upload cannot be a logo; Reason is one of the
// kudos.Logo* reasons.
type Refusal struct {
	Reason string
	Detail string
}

func (r *Refusal) Error() string { return "logo refused: " + r.Reason + ": " + r.Detail }

func refuse(reason, format string, args ...any) error {
	return &Refusal{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// ReasonOf is the refusal reason of err, or "" when err is not a Refusal.
func ReasonOf(err error) string {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason
	}
	return ""
}

var (
	pngMagic  = []byte("\x89PNG\r\n\x1a\n")
	jpegMagic = []byte{0xff, 0xd8, 0xff}
)

// Sniff tells the format by the first bytes.
func Sniff(data []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(data, pngMagic):
		return PNG, true
	case bytes.HasPrefix(data, jpegMagic):
		return JPEG, true
	}
	return "", false
}

// Header is what an image says about itself before it is decoded.
type Header struct {
	Format        Format
	Width, Height int
	// DecodeBytes is what decoding it is expected to allocate.
	DecodeBytes int64
}

// Inspect checks an upload without decoding its pixels: at most
// kudos.LogoMaxBytes, PNG or JPEG by its magic bytes, a readable header, and
// at most kudos.LogoMaxPixels. A refusal is a *Refusal.
func Inspect(data []byte) (Header, error) {
	if len(data) > kudos.LogoMaxBytes {
		return Header{}, refuse(kudos.LogoTooLarge, "%d bytes", len(data))
	}
	f, ok := Sniff(data)
	if !ok {
		return Header{}, refuse(kudos.LogoNotAnImage, "neither PNG nor JPEG by its first bytes")
	}
	var cfg image.Config
	var err error
	if f == PNG {
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	} else {
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	}
	if err != nil {
		return Header{}, refuse(kudos.LogoUnreadable, "header: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Header{}, refuse(kudos.LogoUnreadable, "empty canvas %d×%d", cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > kudos.LogoMaxPixels {
		return Header{}, refuse(kudos.LogoTooManyPixels, "%d×%d", cfg.Width, cfg.Height)
	}
	need := decodeBytes(f, data, cfg)
	if need > MaxDecodeBytes {
		return Header{}, refuse(kudos.LogoTooManyPixels, "%d×%d would take %d MiB to decode", cfg.Width, cfg.Height, need>>20)
	}
	return Header{Format: f, Width: cfg.Width, Height: cfg.Height, DecodeBytes: need}, nil
}

// MaxDecodeBytes bounds the memory the decoded image may take (scaling it
// adds at most ScaleBytes). The pixel limit
// alone does not: a 16-bit PNG takes 8 bytes a pixel, and a progressive JPEG
// keeps every DCT coefficient as an int32 until its last scan (a 4000×4000
// progressive CMYK JPEG would take about 320 MB).
const MaxDecodeBytes = 96 << 20

// ScaleBytes bounds what scaling a decoded image to the logo size allocates
// (the halvings and the final resampling; see scaleToFit).
const ScaleBytes = 32 << 20

// decodeBytes estimates, from the header alone, what decoding allocates:
// the decoded image, plus the coefficients of a progressive JPEG, doubled
// for an interlaced PNG (decoded pass by pass, then merged).
func decodeBytes(f Format, data []byte, cfg image.Config) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	if f == PNG {
		var perPixel int64
		switch cfg.ColorModel {
		case color.GrayModel:
			perPixel = 1
		case color.Gray16Model:
			perPixel = 2
		case color.RGBA64Model, color.NRGBA64Model:
			perPixel = 8
		default:
			if _, ok := cfg.ColorModel.(color.Palette); ok {
				perPixel = 1
			} else {
				perPixel = 4
			}
		}
		need := px * perPixel
		if len(data) > 28 && data[28] == 1 { // IHDR interlace method: Adam7
			need *= 2
		}
		return need
	}
	progressive, planes := jpegFrame(data)
	decoded := px * 4 // CMYK, or RGBA after conversion: the most a JPEG decodes to
	if progressive {
		return decoded + int64(planes*float64(px))*4 // an int32 per coefficient
	}
	return decoded
}

// jpegFrame reads the frame header (SOFn) of a JPEG: whether it is
// progressive, and how many full-resolution planes its components add up to
// (3 for 4:4:4 YCbCr, 1.5 for 4:2:0, 4 for CMYK). An unreadable frame counts
// as the worst case.
func jpegFrame(data []byte) (progressive bool, planes float64) {
	for i := 2; i+3 < len(data); {
		if data[i] != 0xff {
			return true, 4
		}
		marker := data[i+1]
		if marker == 0xff {
			i++
			continue
		}
		n := int(data[i+2])<<8 | int(data[i+3])
		if marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc {
			seg := data[i+4 : min(len(data), i+2+n)]
			if len(seg) < 6 {
				return true, 4
			}
			comps := int(seg[5])
			hmax, vmax, sum := 1, 1, 0
			for c := 0; c < comps && 6+3*c+1 < len(seg); c++ {
				s := seg[6+3*c+1]
				hmax, vmax = max(hmax, int(s>>4)), max(vmax, int(s&15))
				sum += int(s>>4) * int(s&15)
			}
			return marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce, float64(sum) / float64(hmax*vmax)
		}
		i += 2 + n
	}
	return true, 4
}

// Result is a logo ready to publish.
type Result struct {
	Format        Format
	Data          []byte
	Width, Height int
}

// Process inspects, decodes, scales the image to fit kudos.LogoMaxSide and
// encodes it again in its own format. The same input gives the same bytes,
// so a retried publication writes the same object. A refusal is a *Refusal;
// any other error is a bug or an exhausted machine.
func Process(data []byte) (Result, error) {
	h, err := Inspect(data)
	if err != nil {
		return Result{}, err
	}
	var src image.Image
	if h.Format == PNG {
		src, err = png.Decode(bytes.NewReader(data))
	} else {
		src, err = jpeg.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return Result{}, refuse(kudos.LogoUnreadable, "decode: %v", err)
	}
	img := scaleToFit(src, kudos.LogoMaxSide)
	var out bytes.Buffer
	if h.Format == PNG {
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img)
	} else {
		err = jpeg.Encode(&out, img, &jpeg.Options{Quality: 90})
	}
	if err != nil {
		return Result{}, fmt.Errorf("logoimage: encode: %w", err)
	}
	b := img.Bounds()
	return Result{Format: h.Format, Data: out.Bytes(), Width: b.Dx(), Height: b.Dy()}, nil
}

// scaleToFit returns src scaled down so that neither side exceeds side,
// keeping the aspect ratio; smaller images are only copied to a fresh canvas
// (at the origin, as encoders expect).
func scaleToFit(src image.Image, side int) image.Image {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > side || h > side {
		if w >= h {
			h = max(1, h*side/w)
			w = side
		} else {
			w = max(1, w*side/h)
			h = side
		}
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	if w == b.Dx() && h == b.Dy() {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src)
		return dst
	}
	// CatmullRom keeps an intermediate of 32 bytes per destination column and
	// source row (65 MiB from 4000 rows, 512 MiB from a 1×16M strip): halve
	// the source first, each halving averaging 2×2 pixels, until it is at
	// most twice the target on both sides.
	for b.Dx() > 2*w || b.Dy() > 2*h {
		half := image.NewNRGBA(image.Rect(0, 0, max(w, (b.Dx()+1)/2), max(h, (b.Dy()+1)/2)))
		draw.ApproxBiLinear.Scale(half, half.Bounds(), src, b, draw.Src, nil)
		src, b = half, half.Bounds()
	}
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	return dst
}
