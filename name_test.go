package kudos

import "testing"

// TestNamesRefuseControlCharacters: a line break, a tab or a bidi override
// in a name would let it pose as the text of the mails it appears in.
func TestNamesRefuseControlCharacters(t *testing.T) {
	for _, name := range []string{"Ann\nClick here", "Ann\r\nBcc: x", "Ann\tB", "Ann\u202eB", "Ann\u2028B", "Ann\x1bB"} {
		if ValidateName(name) != FInvalidValue {
			t.Errorf("%q accepted", name)
		}
	}
	for _, name := range []string{"Ann", "Zoë O'Brien-Smith", "李 小龙", "J.R.R."} {
		if code := ValidateName(name); code != "" {
			t.Errorf("%q refused: %s", name, code)
		}
	}
}
