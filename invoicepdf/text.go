package invoicepdf

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// strokeLetters are letters with no decomposition whose base letter is still
// the best stand-in when the core fonts lack them (Polish ł, Croatian đ, …).
var strokeLetters = map[rune]rune{'ł': 'l', 'Ł': 'L', 'đ': 'd', 'Đ': 'D', 'ı': 'i', 'ħ': 'h', 'Ħ': 'H'}

// encoder turns UTF-8 text into the cp1252 bytes fpdf's core fonts expect.
// fpdf's translator prints a dot for every rune outside cp1252, which would
// garble Polish, Hungarian or Baltic names (SPEC §3 allows those countries);
// such runes are first folded to their base letter (ő → o, ā → a).
type encoder struct {
	tr func(string) string
}

// encode returns s in cp1252, folding what cp1252 cannot hold.
func (e encoder) encode(s string) string {
	if !e.needsFold(s) {
		return e.tr(s)
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case e.representable(r):
			b.WriteRune(r)
		case strokeLetters[r] != 0:
			b.WriteRune(strokeLetters[r])
		default:
			b.WriteString(e.fold(r))
		}
	}
	return e.tr(b.String())
}

// needsFold reports whether s holds a rune cp1252 lacks.
func (e encoder) needsFold(s string) bool {
	for _, r := range s {
		if !e.representable(r) {
			return true
		}
	}
	return false
}

// representable reports whether cp1252 has r; the translator maps exactly
// the runes it lacks to '.'.
func (e encoder) representable(r rune) bool {
	return r < 0x80 || e.tr(string(r)) != "."
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
