package config

import (
	"strings"
	"testing"
)

// prodEnv is a complete production environment.
func prodEnv(extra map[string]string) func(string) string {
	kv := map[string]string{"KUDOS_ENV": "production", "KUDOS_JWT_SECRET": strings.Repeat("s", 40),
		"KUDOS_PUBLIC_URL": "https://app.example.com", "DATABASE_URL": "postgres://u:p@db.example/kudos",
		"SMTP_URL": "smtp://u:p@mail.example:587", "GOOGLE_CLIENT_ID": "id", "GOOGLE_CLIENT_SECRET": "secret",
		"STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x", "KUDOS_S3_PUBLIC_URL": "https://cdn.example.com",
		"KUDOS_MFA_KEY": testMFAKey}
	for k, v := range extra {
		kv[k] = v
	}
	return env(kv)
}

// TestDevelopmentListensOnLoopbackOnly: a container that forgot
// KUDOS_ENV=production must not serve /dev/mailbox and a known JWT secret to
// the world.
func TestDevelopmentListensOnLoopbackOnly(t *testing.T) {
	for _, kv := range []map[string]string{
		{"KUDOS_HTTP_ADDR": "0.0.0.0:8080"},
		{"KUDOS_HTTP_ADDR": ":8080"},
		{"KUDOS_HTTP_ADDR": "10.1.2.3:8080"},
		{"KUDOS_DEV_SMTP_ADDR": "0.0.0.0:2525"},
		{"KUDOS_METRICS_ADDR": "[::]:9091"},
	} {
		_, err := LoadFrom(env(kv))
		if err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("%v: %v, want a refusal naming loopback", kv, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:8080", "localhost:8080", "[::1]:8080"} {
		if _, err := LoadFrom(env(map[string]string{"KUDOS_HTTP_ADDR": addr})); err != nil {
			t.Errorf("%s refused: %v", addr, err)
		}
	}
	if _, err := LoadFrom(prodEnv(map[string]string{"KUDOS_HTTP_ADDR": "0.0.0.0:8080"})); err != nil {
		t.Fatalf("production on all interfaces refused: %v", err)
	}
}

// TestProductionNamesWhatIsMissing: every production refusal names the
// variable to set, including an http public URL and the database.
func TestProductionNamesWhatIsMissing(t *testing.T) {
	_, err := LoadFrom(env(map[string]string{"KUDOS_ENV": "production"}))
	for _, want := range []string{"KUDOS_PUBLIC_URL", "DATABASE_URL", "KUDOS_JWT_SECRET", "SMTP_URL", "GOOGLE_CLIENT_ID", "KUDOS_S3_PUBLIC_URL"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s: %v", want, err)
		}
	}
	if _, err := LoadFrom(prodEnv(map[string]string{"KUDOS_PUBLIC_URL": "http://app.example.com"})); err == nil || !strings.Contains(err.Error(), "https") {
		t.Errorf("a plain-http public URL in production: %v", err)
	}
	c, err := LoadFrom(prodEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	// No development UI origin in production CORS; mail over TLS only.
	if c.AllowedOrigin("http://localhost:5173") || c.AllowedOrigin("http://127.0.0.1:5173") {
		t.Errorf("production allows the Vite dev server: %v", c.UIOrigins)
	}
	if !c.SMTPRequireTLS {
		t.Error("production sends mail without requiring TLS")
	}
	c, _ = LoadFrom(prodEnv(map[string]string{"KUDOS_SMTP_ALLOW_INSECURE": "true"}))
	if c == nil || c.SMTPRequireTLS {
		t.Error("KUDOS_SMTP_ALLOW_INSECURE=true does not allow plain SMTP")
	}
}

// TestRedactKeywordAndQueryPasswords: every way a password can sit in a
// connection string is hidden from the logs.
func TestRedactKeywordAndQueryPasswords(t *testing.T) {
	for _, s := range []string{
		"host=db user=kudos password=hunter2 dbname=kudos",
		"host=db password='hun ter2' dbname=kudos",
		"postgres://db/kudos?user=kudos&password=hunter2",
		"postgres://kudos:hunter2@db/kudos",
	} {
		if out := redactURL(s); strings.Contains(out, "hunter2") || strings.Contains(out, "ter2") {
			t.Errorf("redactURL(%q) = %q", s, out)
		}
	}
}

func TestTrustedProxies(t *testing.T) {
	c, err := LoadFrom(env(map[string]string{"KUDOS_TRUSTED_PROXIES": "10.0.0.0/8, 192.168.1.7/32"}))
	if err != nil || len(c.TrustedProxies) != 2 {
		t.Fatalf("%v %v", c, err)
	}
	if _, err := LoadFrom(env(map[string]string{"KUDOS_TRUSTED_PROXIES": "everyone"})); err == nil {
		t.Fatal("a non-CIDR accepted")
	}
}

// TestPprofListensOnLoopbackOnly: KUDOS_PPROF_ADDR is off by default and, in
// every environment, refused unless it is a loopback address (a profile
// endpoint shows memory and can burn CPU).
func TestPprofListensOnLoopbackOnly(t *testing.T) {
	c, err := LoadFrom(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.PprofAddr != "" {
		t.Fatalf("default: PprofAddr %q, want off", c.PprofAddr)
	}
	for _, addr := range []string{"0.0.0.0:6060", ":6060", "10.1.2.3:6060", "[::]:6060", "example.com:6060", "6060"} {
		for name, get := range map[string]func(string) string{
			"development": env(map[string]string{"KUDOS_PPROF_ADDR": addr}),
			"production":  prodEnv(map[string]string{"KUDOS_PPROF_ADDR": addr}),
		} {
			_, err := LoadFrom(get)
			if err == nil || !strings.Contains(err.Error(), "KUDOS_PPROF_ADDR") || !strings.Contains(err.Error(), "loopback") {
				t.Errorf("%s %s: %v, want a refusal naming KUDOS_PPROF_ADDR and loopback", name, addr, err)
			}
		}
	}
	for _, addr := range []string{"127.0.0.1:6060", "localhost:6060", "[::1]:6060", "127.0.0.1:0"} {
		c, err := LoadFrom(prodEnv(map[string]string{"KUDOS_PPROF_ADDR": addr}))
		if err != nil {
			t.Errorf("%s refused: %v", addr, err)
		} else if c.PprofAddr != addr {
			t.Errorf("%s: PprofAddr %q", addr, c.PprofAddr)
		}
	}
}

// testMFAKey is a production-shaped KUDOS_MFA_KEY (32 bytes, base64).
const testMFAKey = "cHJvZHVjdGlvbi1tZmEta2V5LTMyLWJ5dGVzLWxvbmc="

// TestMFAKey: production refuses to start without KUDOS_MFA_KEY or with
// the development key; a key that is not 32 bytes of base64 is refused
// everywhere; development has a fixed key of its own.
func TestMFAKey(t *testing.T) {
	for name, v := range map[string]string{"missing": "", "the development key": devMFAKey} {
		_, err := LoadFrom(prodEnv(map[string]string{"KUDOS_MFA_KEY": v}))
		if v == "" {
			_, err = LoadFrom(func(k string) string {
				if k == "KUDOS_MFA_KEY" {
					return ""
				}
				return prodEnv(nil)(k)
			})
		}
		if err == nil || !strings.Contains(err.Error(), "KUDOS_MFA_KEY") {
			t.Errorf("production with %s: %v", name, err)
		}
	}
	for _, bad := range []string{"not base64!", "c2hvcnQ="} {
		if _, err := LoadFrom(env(map[string]string{"KUDOS_MFA_KEY": bad})); err == nil || !strings.Contains(err.Error(), "KUDOS_MFA_KEY") {
			t.Errorf("key %q: %v", bad, err)
		}
	}
	c, err := LoadFrom(env(nil))
	if err != nil || len(c.MFAKey) != 32 {
		t.Fatalf("development key: %v %d", err, len(c.MFAKey))
	}
	if c, err := LoadFrom(prodEnv(nil)); err != nil || string(c.MFAKey) != "production-mfa-key-32-bytes-long" {
		t.Fatalf("production key: %v", err)
	}
}
