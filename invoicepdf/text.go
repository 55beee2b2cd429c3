package invoicepdf

import (
	"strings"
	"unicode"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/unicode/norm"
)

// strokeLetters are letters with no decomposition whose base letter is still
// the best stand-in when the core fonts lack them (Polish ł, Croatian đ, …).
var strokeLetters = map[rune]rune{'ł': 'l', 'Ł': 'L', 'đ': 'd', 'Đ': 'D', 'ı': 'i', 'ħ': 'h', 'Ħ': 'H'}

// encoder turns UTF-8 text into the cp1252 bytes fpdf's core fonts expect.
// A rune outside cp1252 would print as a dot, which would garble Polish,
// Hungarian or Baltic names (SPEC §3 allows those countries); such runes are
// first folded to their base letter (ő → o, ā → a). It holds no state, so
// one value serves every render: fpdf's own translator parses its code page
// table on every call, a quarter of a PDF's CPU.
type encoder struct{}

// encode returns s in cp1252, folding what cp1252 cannot hold.
func (e encoder) encode(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if c, ok := cp1252(r); ok {
			b = append(b, c)
			continue
		}
		folded := e.fold(r)
		if s, ok := strokeLetters[r]; ok {
			folded = string(s)
		}
		for _, f := range folded {
			c, _ := cp1252(f) // fold keeps only what cp1252 has
			b = append(b, c)
		}
	}
	return string(b)
}

// cp1252 is r's byte in Windows-1252, and whether it has one.
func cp1252(r rune) (byte, bool) {
	if r < 0x80 {
		return byte(r), true
	}
	c, ok := charmap.Windows1252.EncodeRune(r)
	return c, ok && c >= 0x80 && !undefinedCP1252[c]
}

// undefinedCP1252 are the five bytes Windows-1252 leaves unassigned, which
// x/text maps to the C1 controls of the same number; fpdf's core fonts have
// no glyph for them.
var undefinedCP1252 = map[byte]bool{0x81: true, 0x8D: true, 0x8F: true, 0x90: true, 0x9D: true}

// representable reports whether cp1252 has r.
func (e encoder) representable(r rune) bool {
	_, ok := cp1252(r)
	return ok
}

// fold decomposes r and keeps the parts cp1252 can show, dropping the
// combining marks; "?" when nothing is left.
func (e encoder) fold(r rune) string {
	var b strings.Builder
	for _, p := range norm.NFD.String(string(r)) {
		if !unicode.Is(unicode.Mn, p) && e.representable(p) {
			b.WriteRune(p)
		}
	}
	if b.Len() == 0 {
		return "?"
	}
	return b.String()
}
