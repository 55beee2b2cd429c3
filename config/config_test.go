package config

import (
	"os"
	"strings"
	"testing"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func TestDefaultsRunLocally(t *testing.T) {
	c, err := LoadFrom(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !c.IsDevelopment() || c.HTTPAddr != "127.0.0.1:8080" || c.TrialDuration.Hours() != 336 || c.BillingPeriod.Hours() != 8760 {
		t.Fatalf("unexpected defaults: %+v", c)
	}
	if !c.AllowedOrigin("http://127.0.0.1:8080") || !c.AllowedOrigin("http://localhost:8080/") || c.AllowedOrigin("https://evil.example") {
		t.Fatal("default UI origins are wrong")
	}
}

func TestProductionRefusesStandIns(t *testing.T) {
	_, err := LoadFrom(env(map[string]string{"KUDOS_ENV": "production"}))
	if err == nil {
		t.Fatal("production started with local stand-ins")
	}
	for _, want := range []string{"KUDOS_JWT_SECRET", "SMTP_URL", "GOOGLE_CLIENT_ID", "STRIPE_SECRET_KEY", "KUDOS_S3_PUBLIC_URL"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s: %v", want, err)
		}
	}
	c, err := LoadFrom(env(map[string]string{"KUDOS_ENV": "production", "KUDOS_JWT_SECRET": strings.Repeat("s", 40),
		"KUDOS_PUBLIC_URL": "https://app.example.com", "DATABASE_URL": "postgres://u:p@db.example/kudos",
		"SMTP_URL": "smtps://u:p@mail.example:465", "GOOGLE_CLIENT_ID": "id", "GOOGLE_CLIENT_SECRET": "secret",
		"STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x", "KUDOS_S3_PUBLIC_URL": "https://cdn.example.com",
		"KUDOS_MFA_KEY": testMFAKey}))
	if err != nil {
		t.Fatal(err)
	}
	if c.OIDCIssuer != "https://accounts.google.com" {
		t.Fatalf("issuer = %q", c.OIDCIssuer)
	}
}

func TestInvalidValues(t *testing.T) {
	for name, kv := range map[string]map[string]string{
		"env":                 {"KUDOS_ENV": "staging"},
		"duration":            {"KUDOS_TRIAL_DURATION": "two weeks"},
		"negative":            {"KUDOS_BILLING_PERIOD": "-1h"},
		"origin":              {"KUDOS_UI_ORIGINS": "javascript:alert(1)"},
		"smtp":                {"SMTP_URL": "http://x"},
		"short":               {"KUDOS_JWT_SECRET": "short"},
		"previous short":      {"KUDOS_JWT_PREVIOUS_SECRETS": strings.Repeat("p", 40) + ",short"},
		"previous is current": {"KUDOS_JWT_SECRET": strings.Repeat("s", 40), "KUDOS_JWT_PREVIOUS_SECRETS": strings.Repeat("s", 40)},
		"level":               {"KUDOS_LOG_LEVEL": "loud"},
		"price":               {"KUDOS_PRICE_PRO": "-5"},
		"order":               {"KUDOS_PRICE_PRO": "1"},
		"currency":            {"KUDOS_CURRENCY": "EURO"},
		// Prices, invoices and charges count cents: a currency with no
		// cents at the provider (yen: 18000 would be charged ¥18 000 while
		// the invoice says ¥180.00) or with three decimals is refused.
		"zero-decimal currency":  {"KUDOS_CURRENCY": "JPY"},
		"zero-decimal at Stripe": {"KUDOS_CURRENCY": "mga"},
		"three-decimal currency": {"KUDOS_CURRENCY": "KWD"},
		"provider":               {"KUDOS_PAYMENT_PROVIDER": "paypal"},
		"stripe":                 {"KUDOS_PAYMENT_PROVIDER": "stripe"},
		"seller outside EU":      {"KUDOS_SELLER_COUNTRY": "GB"},
		// The invoices' seller is established in NL: a seller country
		// that differs would reverse charge the seller's own compatriots.
		"seller not invoices'": {"KUDOS_SELLER_COUNTRY": "BE"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := LoadFrom(env(kv)); err == nil {
				t.Fatalf("%v accepted", kv)
			}
		})
	}
}

func TestSecretsAreNotLogged(t *testing.T) {
	c, err := LoadFrom(env(map[string]string{"DATABASE_URL": "postgres://u:hunter2@db/kudos", "SMTP_URL": "smtp://u:mailpw@m:25"}))
	if err != nil {
		t.Fatal(err)
	}
	out := c.LogValue().String()
	for _, secret := range []string{"hunter2", "mailpw", c.JWTSecret} {
		if strings.Contains(out, secret) {
			t.Fatalf("log value leaks %q: %s", secret, out)
		}
	}
}

// TestREADMEListsEveryVariable keeps the README's configuration table true.
func TestREADMEListsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range Vars {
		if !strings.Contains(string(readme), "| `"+v.Name+"` |") {
			t.Errorf("README.md has no configuration row for %s", v.Name)
		}
	}
}

// TestPreviousJWTSecrets: the former secrets of a rotation are read as a
// list and never logged.
func TestPreviousJWTSecrets(t *testing.T) {
	a, b := strings.Repeat("a", 32), strings.Repeat("b", 40)
	c, err := LoadFrom(env(map[string]string{"KUDOS_JWT_PREVIOUS_SECRETS": a + ", " + b}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.JWTPreviousSecrets) != 2 || c.JWTPreviousSecrets[0] != a || c.JWTPreviousSecrets[1] != b {
		t.Fatalf("previous secrets %q", c.JWTPreviousSecrets)
	}
	if out := c.LogValue().String(); strings.Contains(out, a) || strings.Contains(out, b) {
		t.Fatalf("log value leaks a previous secret: %s", out)
	}
}
