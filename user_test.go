package kudos_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"kudos"
)

func TestValidateEmail(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"ok":          {"a@b.co", ""},
		"empty":       {"", kudos.FRequired},
		"no at":       {"ab.co", kudos.FInvalidEmail},
		"no dot":      {"a@bco", kudos.FInvalidEmail},
		"space":       {"a b@c.de", kudos.FInvalidEmail},
		"two ats":     {"a@b@c.de", kudos.FInvalidEmail},
		"too long":    {strings.Repeat("a", 250) + "@b.co", kudos.FInvalidEmail},
		"bad utf8":    {"a\xff@b.co", kudos.FInvalidEmail},
		"NUL":         {"a\x00@b.co", kudos.FInvalidEmail},
		"control":     {"a\x1b@b.co", kudos.FInvalidEmail},
		"script-ish":  {"<script>@x.io", ""},
		"sql-ish ok?": {"a'--@b.co", ""},
	} {
		t.Run(name, func(t *testing.T) {
			if got := kudos.ValidateEmail(tc.in); got != tc.want {
				t.Fatalf("ValidateEmail(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestValidatePassword(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"ok":         {"Secret1!", ""},
		"all kinds":  {"Ab1!@#$%^&*", ""},
		"empty":      {"", kudos.FRequired},
		"short":      {"Se1!", kudos.FTooShort},
		"no upper":   {"secret1!", kudos.FInvalidPassword},
		"no digit":   {"Secret!!", kudos.FInvalidPassword},
		"no symbol":  {"Secret12", kudos.FInvalidPassword},
		"bad symbol": {"Secret1!(", kudos.FInvalidPassword},
		"space":      {"Secret 1!", kudos.FInvalidPassword},
		"unicode":    {"Sécret1!", kudos.FInvalidPassword},
		"too long":   {"A1!" + strings.Repeat("a", 126), kudos.FTooLong},
		"max length": {"A1!" + strings.Repeat("a", 125), ""},
	} {
		t.Run(name, func(t *testing.T) {
			if got := kudos.ValidatePassword(tc.in); got != tc.want {
				t.Fatalf("ValidatePassword(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestValidateNames(t *testing.T) {
	if kudos.ValidateName("  ") != kudos.FRequired || kudos.ValidateName("Ann") != "" || kudos.ValidateName(strings.Repeat("x", 101)) != kudos.FTooLong {
		t.Fatal("ValidateName")
	}
	if kudos.ValidateName("A\x00") != kudos.FInvalidValue || kudos.ValidateName("\xff") != kudos.FInvalidValue || kudos.ValidateAccountName("Acme\x00") != kudos.FInvalidValue {
		t.Fatal("text that cannot be stored is accepted")
	}
	if kudos.ValidateAccountName("ab") != kudos.FTooShort || kudos.ValidateAccountName("abc") != "" || kudos.ValidateAccountName(" ") != kudos.FRequired {
		t.Fatal("ValidateAccountName")
	}
}

func FuzzValidateEmail(f *testing.F) {
	for _, s := range []string{"a@b.co", "", "x@y", "@@.", "a@b.c\n", "a\x00@b.co", " A@B.CO ", "\xff@b.co"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code := kudos.ValidateEmail(s)
		if code != "" && code != kudos.FRequired && code != kudos.FInvalidEmail {
			t.Fatalf("ValidateEmail(%q) = unexpected code %q", s, code)
		}
		if code == "" && (strings.ContainsAny(s, " \t\n\x00") || strings.Count(s, "@") != 1 || len(s) > kudos.EmailMaxLength || !utf8.ValidString(s)) {
			t.Fatalf("accepted %q", s)
		}
		// Handlers compare and store normalized addresses: normalizing one
		// again must not change it.
		if n := kudos.NormalizeEmail(s); kudos.NormalizeEmail(n) != n {
			t.Fatalf("NormalizeEmail is not idempotent on %q", s)
		}
	})
}

func FuzzValidatePassword(f *testing.F) {
	for _, s := range []string{"Secret1!", "", "aaaaaaaa", "Ab1!Ab1!\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if kudos.ValidatePassword(s) != "" {
			return
		}
		if len(s) < 8 || len(s) > 128 || !strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") ||
			!strings.ContainsAny(s, "0123456789") || !strings.ContainsAny(s, "!@#$%^&*") {
			t.Fatalf("accepted %q", s)
		}
		for _, r := range s {
			if !(r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!@#$%^&*", r))) {
				t.Fatalf("accepted %q with %q", s, r)
			}
		}
	})
}
