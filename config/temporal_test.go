package config

import (
	"strings"
	"testing"
)

// TestProductionRefusesPlaintextTemporal: production does not start with a
// plaintext connection to a Temporal beyond this machine unless told to, and
// says what to set; loopback and TLS are fine.
func TestProductionRefusesPlaintextTemporal(t *testing.T) {
	prod := func(extra map[string]string) error {
		_, err := LoadFrom(prodEnv(extra))
		return err
	}
	err := prod(map[string]string{"TEMPORAL_ADDRESS": "temporal.internal:7233"})
	if err == nil || !strings.Contains(err.Error(), "refuses plaintext") || !strings.Contains(err.Error(), "TEMPORAL_TLS=true") {
		t.Fatalf("plaintext to a remote Temporal: %v", err)
	}
	for _, ok := range []map[string]string{
		{"TEMPORAL_ADDRESS": "127.0.0.1:7233"},
		{"TEMPORAL_ADDRESS": "temporal.internal:7233", "TEMPORAL_TLS": "true"},
		{"TEMPORAL_ADDRESS": "ns.acct.tmprl.cloud:7233", "TEMPORAL_API_KEY": "k"},
		{"TEMPORAL_ADDRESS": "temporal.internal:7233", "KUDOS_TEMPORAL_ALLOW_PLAINTEXT": "true"},
	} {
		if err := prod(ok); err != nil {
			t.Errorf("%v refused: %v", ok, err)
		}
	}
	if err := prod(map[string]string{"TEMPORAL_TLS_CERT_FILE": "/c.pem"}); err == nil || !strings.Contains(err.Error(), "TEMPORAL_TLS_KEY_FILE") {
		t.Errorf("a certificate without its key: %v", err)
	}
}

// TestTemporalCompression: gzip only across a network by default; either
// way when asked; anything else refused.
func TestTemporalCompression(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		gzip bool
	}{
		{map[string]string{"TEMPORAL_ADDRESS": "127.0.0.1:7233"}, false},
		{map[string]string{"TEMPORAL_ADDRESS": "localhost:7233"}, false},
		{map[string]string{"TEMPORAL_ADDRESS": "ns.acct.tmprl.cloud:7233", "TEMPORAL_API_KEY": "k"}, true},
		{map[string]string{"TEMPORAL_ADDRESS": "127.0.0.1:7233", "KUDOS_TEMPORAL_COMPRESSION": "gzip"}, true},
		{map[string]string{"TEMPORAL_ADDRESS": "temporal.internal:7233", "TEMPORAL_TLS": "true", "KUDOS_TEMPORAL_COMPRESSION": "none"}, false},
	} {
		c, err := LoadFrom(prodEnv(tc.env))
		if err != nil || c.Temporal.Gzip != tc.gzip {
			t.Errorf("%v: gzip %v, %v; want %v", tc.env, c != nil && c.Temporal.Gzip, err, tc.gzip)
		}
	}
	if _, err := LoadFrom(prodEnv(map[string]string{"KUDOS_TEMPORAL_COMPRESSION": "zstd"})); err == nil ||
		!strings.Contains(err.Error(), "KUDOS_TEMPORAL_COMPRESSION") {
		t.Errorf("zstd: %v", err)
	}
}
