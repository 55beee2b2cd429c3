// Package testimages makes the images the logo tests upload: real PNGs and
// JPEGs of any size, incompressible noise, and a decompression bomb (a valid
// PNG header claiming a huge canvas over a few bytes of data).
package testimages

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
)

// Gradient is a w×h picture whose alpha varies along x, so that scaling and
// transparency survive a round trip.
func Gradient(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{R: uint8(x), G: uint8(y), B: 200, A: uint8(128 + x%128)})
		}
	}
	return img
}

// PNG encodes img as a PNG.
func PNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // encoding an in-memory image into a buffer cannot fail
	}
	return b.Bytes()
}

// JPEG encodes img as a JPEG of the default quality.
func JPEG(img image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// Chunk is one PNG chunk with its length and CRC.
func Chunk(kind string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(out, kind...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(kind), data...)))
}

// pngFile assembles a PNG of a w×h canvas (colorType 2 RGB, 6 RGBA, 8 bits)
// around already compressed pixel data.
func pngFile(w, h uint32, colorType byte, idat []byte) []byte {
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)
	ihdr = append(ihdr, 8, colorType, 0, 0, 0)
	out := append([]byte("\x89PNG\r\n\x1a\n"), Chunk("IHDR", ihdr)...)
	out = append(out, Chunk("IDAT", idat)...)
	return append(out, Chunk("IEND", nil)...)
}

// BombPNG is a valid PNG signature and header that claim w×h RGBA pixels
// over a few bytes of pixel data: decoding it would allocate w×h×4 bytes.
func BombPNG(w, h uint32) []byte {
	return pngFile(w, h, 6, []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
}

// NoisePNG is a w×h RGB PNG of pseudo-random pixels (the same for the same
// size): it does not compress (about 3 bytes a pixel), so reading, decoding
// and scaling it take a measurable moment.
func NoisePNG(w, h int) []byte {
	var raw bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&raw, zlib.BestSpeed)
	row := make([]byte, 1+3*w) // filter byte 0, then RGB
	r := rand.New(rand.NewPCG(1, 2))
	for range h {
		for i := 1; i < len(row); i++ {
			row[i] = byte(r.Uint32())
		}
		_, _ = zw.Write(row)
	}
	_ = zw.Close()
	return pngFile(uint32(w), uint32(h), 2, raw.Bytes())
}
