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

// encodeCP1252 turns UTF-8 text into the cp1252 bytes fpdf's core fonts
// expect. A rune outside cp1252 would print as a dot, which would garble
// Polish, Hungarian or Baltic names (SPEC §3 allows those countries); such
// runes are first folded to their base letter (ő → o, ā → a, ł → l). It
// reads a fixed table: fpdf's own translator parsed its code page map on
// every call, a quarter of a PDF's CPU.
func encodeCP1252(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if c, ok := cp1252(r); ok {
			b = append(b, c)
			continue
		}
		for _, f := range fold(r) {
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
	return c, ok && !undefinedCP1252[c]
}

// undefinedCP1252 are the five bytes Windows-1252 leaves unassigned, which
// x/text maps to the C1 controls of the same number; fpdf's core fonts have
// no glyph for them.
var undefinedCP1252 = map[byte]bool{0x81: true, 0x8D: true, 0x8F: true, 0x90: true, 0x9D: true}

// fold is r's stand-in in cp1252: its stroke letter's base, else r
// decomposed with the parts cp1252 can show, dropping the combining marks;
// "?" when nothing is left.
func fold(r rune) string {
	if base, ok := strokeLetters[r]; ok {
		return string(base)
	}
	var b strings.Builder
	for _, p := range norm.NFD.String(string(r)) {
		if _, ok := cp1252(p); ok && !unicode.Is(unicode.Mn, p) {
			b.WriteRune(p)
		}
	}
	if b.Len() == 0 {
		return "?"
	}
	return b.String()
}
