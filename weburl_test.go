package kudos

import "testing"

func TestIsWebURL(t *testing.T) {
	for s, want := range map[string]bool{
		"https://checkout.stripe.com/c/pay/cs_1?x=1": true,
		"http://127.0.0.1:8080/dashboard/x/plans":    true,
		"HTTPS://pay.example/x":                      true,
		"javascript:alert(1)":                        false,
		"/dashboard/x/plans":                         false,
		"//pay.example/x":                            false,
		"https://":                                   false,
		"https://user:pw@pay.example/":               false,
		"ftp://pay.example/x":                        false,
		"":                                           false,
		"https://pay.example/\x7f":                   false,
	} {
		if got := IsWebURL(s); got != want {
			t.Errorf("IsWebURL(%q) = %v, want %v", s, got, want)
		}
	}
}
