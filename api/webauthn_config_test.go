package api

import (
	"slices"
	"testing"

	"kudos/config"
)

// TestRelyingPartyOfTheConfiguration: the RP id is the host of
// KUDOS_PUBLIC_URL (localhost for a loopback address, which browsers refuse
// as RP id) and the origins are the UI origins on that host; resident keys
// and user verification are required.
func TestRelyingPartyOfTheConfiguration(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env     map[string]string
		rpID    string
		origins []string
	}{
		{map[string]string{"KUDOS_PUBLIC_URL": "http://127.0.0.1:8080"}, "localhost",
			[]string{"http://localhost:8080", "http://localhost:5173"}},
		{map[string]string{"KUDOS_PUBLIC_URL": "https://kudos.example.com", "KUDOS_UI_ORIGINS": "https://kudos.example.com,https://app.kudos.example.com,https://evil.example"},
			"kudos.example.com", []string{"https://kudos.example.com", "https://app.kudos.example.com"}},
	} {
		cfg, err := config.LoadFrom(func(k string) string { return tc.env[k] })
		if err != nil {
			t.Fatal(err)
		}
		rp, err := newRelyingParty(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if rp.Config.RPID != tc.rpID || !slices.Equal(rp.Config.RPOrigins, tc.origins) || rp.Config.RPDisplayName != "Kudos" {
			t.Errorf("%v: RP id %q, origins %v", tc.env, rp.Config.RPID, rp.Config.RPOrigins)
		}
		sel := rp.Config.AuthenticatorSelection
		if sel.ResidentKey != "required" || sel.UserVerification != "required" {
			t.Errorf("authenticator selection %+v", sel)
		}
	}
}
