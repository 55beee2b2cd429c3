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
	return Header{Format: f, Width: cfg.Width, Height: cfg.Height}, nil
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
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	return dst
}
