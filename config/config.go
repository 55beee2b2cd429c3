// Package config reads the one typed configuration of Kudos from environment
// variables. Every variable has a default that runs the product locally; the
// README's configuration table lists them all, and TestREADMEListsEveryVariable
// keeps the two in step.
package config

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"kudos"
)

// Environments Kudos runs in.
const (
	Development = "development"
	Production  = "production"
)

// devJWTSecret signs development sessions. Production refuses to start with it.
const devJWTSecret = "kudos-development-secret-do-not-use-in-production"

// devMFAKey encrypts development TOTP secrets (32 bytes, base64). Production
// refuses to start with it.
const devMFAKey = "a3Vkb3MtZGV2LW1mYS1rZXktZG8tbm90LXVzZS1pdCE="

// Config is everything the binary needs, read once at start.
type Config struct {
	Env      string
	HTTPAddr string
	// PublicURL is the origin the api is reached at: the root of every link
	// in a mail, sandbox checkout links, the local OIDC provider's redirect;
	// https in production (and then HSTS).
	PublicURL string
	// UIOrigins are the origins allowed as root_domain / redirect_url and for
	// CORS. Redirects only ever point at one of them; mail links at PublicURL.
	UIOrigins []string
	LogLevel  slog.Level
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// MetricsAddr is the address of the /metrics listener.
	MetricsAddr string
	// PprofAddr is the address of the optional net/http/pprof listener
	// (empty: off); always a loopback address.
	PprofAddr string

	DatabaseURL string

	TemporalAddress   string
	TemporalNamespace string
	// Temporal is how the connection is secured (TLS, mTLS, API key).
	Temporal  TemporalConn
	TaskQueue string

	JWTSecret string
	// JWTPreviousSecrets are the secrets JWTSecret had before a rotation:
	// they still verify the session tokens they signed (auth.Sessions).
	JWTPreviousSecrets []string
	SessionTTL         time.Duration
	// SessionIdle ends a session unused for this long.
	SessionIdle time.Duration
	// MFAKey encrypts TOTP secrets at rest (AES-256-GCM, 32 bytes).
	MFAKey []byte

	TrialDuration time.Duration
	BillingPeriod time.Duration
	// Lifecycle are the reminder and dunning timings.
	Lifecycle       kudos.Lifecycle
	TrialRecordings int
	// Invitation is how long team invitations last and when they are
	// reminded of.
	Invitation kudos.InvitationTiming
	// ExportTTL is how long a data export can be downloaded before its
	// workflow deletes it.
	ExportTTL time.Duration
	// DeletionGrace is how long after the owner asks an account is
	// deleted (they can cancel until then).
	DeletionGrace time.Duration

	// SMTPURL is smtp://user:pass@host:port (or smtps://). Empty in
	// development means the capture inbox on DevSMTPAddr.
	SMTPURL string
	// SMTPInsecure allows plain SMTP without TLS in production.
	SMTPInsecure bool
	// SMTPRequireTLS: plain SMTP must be upgraded with STARTTLS, or fail.
	SMTPRequireTLS bool
	MailFrom       string
	DevSMTPAddr    string

	GoogleClientID     string
	GoogleClientSecret string
	// OIDCIssuer is Google's issuer in production; empty in development means
	// the local OIDC provider on DevOIDCAddr.
	OIDCIssuer  string
	DevOIDCAddr string

	// Prices are the yearly net prices in minor units of Currency.
	Prices kudos.PriceList
	// PaymentProvider is "sandbox" (development only) or "stripe".
	PaymentProvider     string
	StripeSecretKey     string
	StripeWebhookSecret string
	// StripeAPIBase overrides Stripe's API address (stripe-mock in tests).
	StripeAPIBase string
	CheckoutTTL   time.Duration
	// ReconcileInterval is how often the reconcile schedule runs.
	ReconcileInterval time.Duration
	// ProviderReconcileInterval is how often the provider reconciliation
	// Schedule compares Kudos's ledger with the payment provider's.
	ProviderReconcileInterval time.Duration

	// SellerCountry is the EU member state Kudos is established in (ISO
	// 3166, e.g. NL): a verified VAT id of another member state's business
	// is reverse charged.
	SellerCountry string
	// VATRegistrations are the countries outside the EU where the seller is
	// registered for VAT, with its VAT id there (KUDOS_VAT_REGISTRATIONS,
	// kudos.ParseVATRegistrations): only there is a consumer charged VAT
	// (issue 34).
	VATRegistrations map[string]string
	// VATChecker is "standin" (development only: ids ending in 000 are
	// invalid, in 999 unavailable for a minute) or "vies".
	VATChecker string
	// VIESURL is the base of VIES's REST API (tests: an httptest server).
	VIESURL string
	// VATCheckRetry is the first wait of a pending VAT-id check's retries
	// (doubling up to an hour, for 24 h); not an environment variable:
	// tests shorten it.
	VATCheckRetry time.Duration
	// VATCheckLimit is how long a pending check asks VIES before the id
	// counts as invalid (0: 24 h); not an environment variable: tests
	// shorten it.
	VATCheckLimit time.Duration

	// S3: empty S3Endpoint means AWS in production and the in-process local
	// S3 on DevS3Addr in development.
	S3Endpoint, S3Bucket, S3Region string
	S3PathStyle                    bool
	S3AccessKey, S3SecretKey       string
	S3PublicURL                    string
	DevS3Addr, DevS3Dir            string
	// UsesDevS3 is set when the local S3 stands in for S3.
	UsesDevS3 bool
}

// Var describes one environment variable: its name, default and meaning. The
// README's configuration table is generated from (and tested against) Vars.
type Var struct {
	Name, Default, Doc string
	Secret             bool
}

// Vars lists every variable Load reads, in README order.
var Vars = []Var{
	{"KUDOS_ENV", "development", "`development` (local stand-ins allowed) or `production` (every real service required)", false},
	{"KUDOS_HTTP_ADDR", "127.0.0.1:8080", "address the api listens on", false},
	{"KUDOS_PUBLIC_URL", "http://127.0.0.1:8080", "origin the api is reached at", false},
	{"KUDOS_UI_ORIGINS", "", "comma-separated UI origins allowed for Google sign-in redirects and CORS (default: KUDOS_PUBLIC_URL, its localhost twin and, in development only, the Vite dev server); mail links use KUDOS_PUBLIC_URL alone", false},
	{"KUDOS_LOG_LEVEL", "info", "debug, info, warn or error", false},
	{"KUDOS_TRUSTED_PROXIES", "", "comma-separated CIDRs of the load balancers in front of the api; only through them is `X-Forwarded-For` believed for the client address (rate limits, logs)", false},
	{"KUDOS_METRICS_ADDR", "127.0.0.1:9091", "address of the Prometheus `/metrics` listener (kept off the public address)", false},
	{"KUDOS_PPROF_ADDR", "", "address of an optional Go profiling listener (`/debug/pprof/`, e.g. `127.0.0.1:6060`); off when empty, and refused unless loopback, in every environment", false},
	{"DATABASE_URL", "postgres://kudos@127.0.0.1:54329/kudos?sslmode=disable", "Postgres connection string (default: the private cluster `make dev` starts under .data/)", true},
	{"TEMPORAL_ADDRESS", "127.0.0.1:7233", "Temporal frontend host:port", false},
	{"TEMPORAL_NAMESPACE", "default", "Temporal namespace", false},
	{"KUDOS_TASK_QUEUE", "kudos", "Temporal task queue of the worker", false},
	{"TEMPORAL_TLS", "false", "`true` connects to Temporal over TLS (implied by any TEMPORAL_TLS_* variable and by TEMPORAL_API_KEY)", false},
	{"TEMPORAL_TLS_CA_FILE", "", "PEM file of the CA that signed Temporal's server certificate (empty: the system's roots)", false},
	{"TEMPORAL_TLS_SERVER_NAME", "", "name Temporal's server certificate must carry (empty: the host of TEMPORAL_ADDRESS)", false},
	{"TEMPORAL_TLS_CERT_FILE", "", "PEM client certificate for mutual TLS (with TEMPORAL_TLS_KEY_FILE)", false},
	{"TEMPORAL_TLS_KEY_FILE", "", "PEM private key of TEMPORAL_TLS_CERT_FILE", false},
	{"TEMPORAL_API_KEY", "", "Temporal Cloud API key, sent as a bearer token over TLS", true},
	{"KUDOS_TEMPORAL_COMPRESSION", "auto", "gzip of the gRPC messages to Temporal: `gzip`, `none`, or `auto` (none when Temporal is on loopback, where it only costs CPU; gzip beyond)", false},
	{"KUDOS_TEMPORAL_ALLOW_PLAINTEXT", "false", "`true` lets production reach a Temporal beyond this machine without TLS (refused by default)", false},
	{"KUDOS_JWT_SECRET", "", "HMAC key for session tokens, at least 32 bytes (required in production); tokens name it by a key id (`kid`), see KUDOS_JWT_PREVIOUS_SECRETS to rotate it", true},
	{"KUDOS_JWT_PREVIOUS_SECRETS", "", "comma-separated former values of KUDOS_JWT_SECRET, each at least 32 bytes: session tokens they signed are still accepted, new ones are signed with KUDOS_JWT_SECRET; remove them once KUDOS_SESSION_TTL has passed since the rotation", true},
	{"KUDOS_MFA_KEY", "", "32 random bytes, base64: the key that encrypts two-factor (TOTP) secrets at rest (required in production; e.g. `openssl rand -base64 32`; changing it voids every enrolled authenticator app)", true},
	{"KUDOS_SESSION_TTL", "168h", "lifetime of a session token", false},
	{"KUDOS_SESSION_IDLE", "24h", "a session unused for this long ends (idle timeout)", false},
	{"KUDOS_TRIAL_DURATION", "336h", "length of the free trial", false},
	{"KUDOS_BILLING_PERIOD", "8760h", "length of a paid period", false},
	{"KUDOS_TRIAL_REMINDER", "72h", "how long before the trial ends the `trial_reminder` mail goes out (`0` for none)", false},
	{"KUDOS_RENEWAL_REMINDER", "720h", "how long before a yearly renewal the `renewal_reminder` mail goes out (`0` for none)", false},
	{"KUDOS_DUNNING_SCHEDULE", "72h,120h,168h", "retries of a failed renewal charge, as offsets from the renewal date (the plan stays active meanwhile; after the last the plan expires); `none` for no retries", false},
	{"KUDOS_PENDING_CHECK", "24h", "how often a payment settling at the provider (a SEPA debit: a checkout complete and unpaid, a renewal charge processing) is asked about when its final event does not come", false},
	{"KUDOS_PENDING_LIMIT", "336h", "how long a payment may settle before it counts as failed (a renewal charge is then cancelled at the provider if it can be, else waited for)", false},
	{"KUDOS_TRIAL_RECORDINGS", "10", "free recordings in a trial", false},
	{"KUDOS_INVITATION_TTL", "168h", "how long a team invitation stays valid (a resend renews it)", false},
	{"KUDOS_EXPORT_TTL", "168h", "how long a data export can be downloaded before its workflow deletes the file", false},
	{"KUDOS_DELETION_GRACE", "720h", "how long after the owner asks an account is deleted (it can be cancelled until then)", false},
	{"KUDOS_INVITATION_REMINDER", "120h", "how long after an invitation's mail the `team_invitation_reminder` goes out, if it is still pending and before it expires (`0` for none)", false},
	{"SMTP_URL", "", "smtp://user:pass@host:port or smtps://… (default in development: the capture inbox)", true},
	{"KUDOS_SMTP_ALLOW_INSECURE", "false", "`true` lets production send mail over SMTP without TLS (refused by default: STARTTLS is required)", false},
	{"KUDOS_MAIL_FROM", "Kudos <no-reply@kudos.localhost>", "sender of every mail", false},
	{"KUDOS_DEV_SMTP_ADDR", "127.0.0.1:2525", "development capture inbox (read it at GET /dev/mailbox)", false},
	{"GOOGLE_CLIENT_ID", "", "Google OAuth client id (required in production)", false},
	{"GOOGLE_CLIENT_SECRET", "", "Google OAuth client secret (required in production)", true},
	{"KUDOS_OIDC_ISSUER", "", "OIDC issuer (production default: https://accounts.google.com; development default: the local provider)", false},
	{"KUDOS_DEV_OIDC_ADDR", "127.0.0.1:8082", "address of the development OIDC provider", false},
	{"KUDOS_PRICE_STARTER", "18000", "yearly net price of Starter, in minor units (cents) of KUDOS_CURRENCY", false},
	{"KUDOS_PRICE_PRO", "46800", "yearly net price of Pro, in minor units", false},
	{"KUDOS_PRICE_TEAM", "118800", "yearly net price of Team, in minor units", false},
	{"KUDOS_PRICE_SEAT", "10800", "yearly net price of one extra seat of Team (beyond its 10), in minor units", false},
	{"KUDOS_CURRENCY", "EUR", "currency of prices and invoices (ISO 4217, with two decimals: not JPY, KWD…)", false},
	{"KUDOS_PAYMENT_PROVIDER", "", "`sandbox` (the local hosted checkout, development only) or `stripe` (default: sandbox in development, stripe in production)", false},
	{"STRIPE_SECRET_KEY", "", "Stripe secret API key (required with the stripe provider)", true},
	{"STRIPE_WEBHOOK_SECRET", "", "Stripe webhook signing secret (required with the stripe provider)", true},
	{"KUDOS_STRIPE_API_BASE", "", "override of Stripe's API address (tests point it at stripe-mock)", false},
	{"KUDOS_CHECKOUT_TTL", "24h", "how long a hosted checkout stays open", false},
	{"KUDOS_SELLER_COUNTRY", kudos.SellerCountry, "EU member state Kudos is established in (ISO 3166 code; the country of the seller printed on invoices, `kudos.SellerCountry`, or the start is refused): a customer with a VIES-verified VAT id in another member state is reverse charged (0 % VAT, art. 196 VAT Directive)", false},
	{"KUDOS_VAT_REGISTRATIONS", "", "countries outside the EU where the seller is registered for VAT, as `COUNTRY=VATID` pairs separated by commas (e.g. `GB=GB123456789,NO=NO923456789MVA`; empty: none): a consumer there is charged its country's VAT and the invoice prints that VAT id; elsewhere outside the EU a consumer pays no VAT (art. 58 VAT Directive), and a business that gives a tax id never does (art. 44)", false},
	{"KUDOS_VAT_CHECKER", "", "`standin` (development only: VAT ids ending in `000` are invalid, in `999` VIES is unavailable for 60 s, others valid) or `vies` (the EU's VIES service; default: standin in development, vies in production)", false},
	{"KUDOS_VIES_URL", "https://ec.europa.eu/taxation_customs/vies/rest-api", "base URL of the VIES REST API (the vies checker's `POST /check-vat-number`)", false},
	{"KUDOS_PROVIDER_RECONCILE_INTERVAL", "24h", "how often a Temporal Schedule compares Kudos's ledger with the payment provider's lists since its last run, records the events never delivered and reports what differs (kudos_ledger_drift)", false},
	{"KUDOS_RECONCILE_INTERVAL", "15m", "how often a Temporal Schedule restarts, from the read model, any subscription workflow that should run and does not (and purges expired rate limits, sign-in flows, sessions and mailed tokens)", false},
	{"KUDOS_S3_ENDPOINT", "", "S3-compatible endpoint URL (empty: AWS in production, the local S3 in development)", false},
	{"KUDOS_S3_BUCKET", "kudos", "bucket of invoices and logos", false},
	{"KUDOS_S3_REGION", "us-east-1", "S3 region", false},
	{"KUDOS_S3_PATH_STYLE", "false", "address the bucket in the path (most non-AWS servers need `true`; always on for the local S3)", false},
	{"AWS_ACCESS_KEY_ID", "", "S3 access key (empty: the default AWS credential chain)", false},
	{"AWS_SECRET_ACCESS_KEY", "", "S3 secret key", true},
	{"KUDOS_S3_PUBLIC_URL", "", "base URL of public objects, e.g. a CDN (required in production; development: the local S3's bucket URL)", false},
	{"KUDOS_DEV_S3_ADDR", "127.0.0.1:9000", "address of the development S3 server", false},
	{"KUDOS_DEV_S3_DIR", "", "folder the development S3 keeps its objects in (empty: in memory; make dev uses .data/s3)", false},
}

// Load reads the configuration from the environment and validates it.
func Load() (*Config, error) { return LoadFrom(os.Getenv) }

// LoadFrom reads the configuration through getenv (tests pass a map lookup).
func LoadFrom(getenv func(string) string) (*Config, error) {
	get := func(name string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		for _, v := range Vars {
			if v.Name == name {
				return v.Default
			}
		}
		panic("config: unknown variable " + name)
	}
	var errs []error
	dur := func(name string) time.Duration {
		d, err := time.ParseDuration(get(name))
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("%s: want a positive Go duration such as 336h or 30s, got %q", name, get(name)))
		}
		return d
	}
	c := &Config{
		Env:                 get("KUDOS_ENV"),
		HTTPAddr:            get("KUDOS_HTTP_ADDR"),
		PublicURL:           strings.TrimRight(get("KUDOS_PUBLIC_URL"), "/"),
		DatabaseURL:         get("DATABASE_URL"),
		TemporalAddress:     get("TEMPORAL_ADDRESS"),
		TemporalNamespace:   get("TEMPORAL_NAMESPACE"),
		TaskQueue:           get("KUDOS_TASK_QUEUE"),
		JWTSecret:           get("KUDOS_JWT_SECRET"),
		SessionTTL:          dur("KUDOS_SESSION_TTL"),
		SessionIdle:         dur("KUDOS_SESSION_IDLE"),
		MetricsAddr:         get("KUDOS_METRICS_ADDR"),
		PprofAddr:           get("KUDOS_PPROF_ADDR"),
		TrialDuration:       dur("KUDOS_TRIAL_DURATION"),
		BillingPeriod:       dur("KUDOS_BILLING_PERIOD"),
		SMTPURL:             get("SMTP_URL"),
		MailFrom:            get("KUDOS_MAIL_FROM"),
		DevSMTPAddr:         get("KUDOS_DEV_SMTP_ADDR"),
		GoogleClientID:      get("GOOGLE_CLIENT_ID"),
		GoogleClientSecret:  get("GOOGLE_CLIENT_SECRET"),
		OIDCIssuer:          get("KUDOS_OIDC_ISSUER"),
		DevOIDCAddr:         get("KUDOS_DEV_OIDC_ADDR"),
		PaymentProvider:     get("KUDOS_PAYMENT_PROVIDER"),
		StripeSecretKey:     get("STRIPE_SECRET_KEY"),
		StripeWebhookSecret: get("STRIPE_WEBHOOK_SECRET"),
		StripeAPIBase:       get("KUDOS_STRIPE_API_BASE"),
		CheckoutTTL:         dur("KUDOS_CHECKOUT_TTL"),
		ReconcileInterval:   dur("KUDOS_RECONCILE_INTERVAL"),
		SellerCountry:       strings.ToUpper(get("KUDOS_SELLER_COUNTRY")),
		VATChecker:          get("KUDOS_VAT_CHECKER"),
		VIESURL:             strings.TrimRight(get("KUDOS_VIES_URL"), "/"),
		VATCheckRetry:       time.Minute,
		S3Endpoint:          strings.TrimRight(get("KUDOS_S3_ENDPOINT"), "/"),
		S3Bucket:            get("KUDOS_S3_BUCKET"),
		S3Region:            get("KUDOS_S3_REGION"),
		S3AccessKey:         get("AWS_ACCESS_KEY_ID"),
		S3SecretKey:         get("AWS_SECRET_ACCESS_KEY"),
		S3PublicURL:         strings.TrimRight(get("KUDOS_S3_PUBLIC_URL"), "/"),
		DevS3Addr:           get("KUDOS_DEV_S3_ADDR"),
		DevS3Dir:            get("KUDOS_DEV_S3_DIR"),
	}
	c.ProviderReconcileInterval = dur("KUDOS_PROVIDER_RECONCILE_INTERVAL")
	c.Lifecycle.TrialReminder = optionalDur(get("KUDOS_TRIAL_REMINDER"), "KUDOS_TRIAL_REMINDER", &errs)
	c.Lifecycle.RenewalReminder = optionalDur(get("KUDOS_RENEWAL_REMINDER"), "KUDOS_RENEWAL_REMINDER", &errs)
	c.Lifecycle.DunningSchedule = dunningSchedule(get("KUDOS_DUNNING_SCHEDULE"), &errs)
	c.Lifecycle.Trial = c.TrialDuration
	c.Lifecycle.PendingCheck, c.Lifecycle.PendingLimit = dur("KUDOS_PENDING_CHECK"), dur("KUDOS_PENDING_LIMIT")
	c.Invitation.TTL = dur("KUDOS_INVITATION_TTL")
	c.ExportTTL = dur("KUDOS_EXPORT_TTL")
	c.DeletionGrace = dur("KUDOS_DELETION_GRACE")
	c.Invitation.Reminder = optionalDur(get("KUDOS_INVITATION_REMINDER"), "KUDOS_INVITATION_REMINDER", &errs)
	errs = append(errs, c.loadTemporalConn(get)...)
	mfaKey := get("KUDOS_MFA_KEY")
	if b, err := strconv.ParseBool(get("KUDOS_SMTP_ALLOW_INSECURE")); err != nil {
		errs = append(errs, fmt.Errorf("KUDOS_SMTP_ALLOW_INSECURE: want true or false, got %q", get("KUDOS_SMTP_ALLOW_INSECURE")))
	} else {
		c.SMTPInsecure = b
	}
	if v := get("KUDOS_TRUSTED_PROXIES"); v != "" {
		for _, cidr := range strings.Split(v, ",") {
			p, err := netip.ParsePrefix(strings.TrimSpace(cidr))
			if err != nil {
				errs = append(errs, fmt.Errorf("KUDOS_TRUSTED_PROXIES: want CIDRs such as 10.0.0.0/8, got %q", strings.TrimSpace(cidr)))
				continue
			}
			c.TrustedProxies = append(c.TrustedProxies, p.Masked())
		}
	}
	if b, err := strconv.ParseBool(get("KUDOS_S3_PATH_STYLE")); err != nil {
		errs = append(errs, fmt.Errorf("KUDOS_S3_PATH_STYLE: want true or false, got %q", get("KUDOS_S3_PATH_STYLE")))
	} else {
		c.S3PathStyle = b
	}
	if regs, err := kudos.ParseVATRegistrations(get("KUDOS_VAT_REGISTRATIONS")); err != nil {
		errs = append(errs, fmt.Errorf("KUDOS_VAT_REGISTRATIONS: %w", err))
	} else {
		c.VATRegistrations = regs
	}
	c.Prices.Currency = strings.ToUpper(get("KUDOS_CURRENCY"))
	if len(c.Prices.Currency) != 3 {
		errs = append(errs, fmt.Errorf("KUDOS_CURRENCY: want an ISO 4217 code such as EUR, got %q", c.Prices.Currency))
	} else if !kudos.CountsInCents(c.Prices.Currency) {
		errs = append(errs, fmt.Errorf("KUDOS_CURRENCY: %s is not counted in cents at the payment provider, and Kudos's prices, invoices and charges are: choose a currency with two decimals such as EUR", c.Prices.Currency))
	}
	for name, dst := range map[string]*int64{"KUDOS_PRICE_STARTER": &c.Prices.Starter, "KUDOS_PRICE_PRO": &c.Prices.Pro, "KUDOS_PRICE_TEAM": &c.Prices.Team,
		"KUDOS_PRICE_SEAT": &c.Prices.Seat} {
		n, err := strconv.ParseInt(get(name), 10, 64)
		if err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("%s: want a positive whole number of minor units, got %q", name, get(name)))
		}
		*dst = n
	}
	if !(c.Prices.Starter < c.Prices.Pro && c.Prices.Pro < c.Prices.Team) {
		errs = append(errs, errors.New("KUDOS_PRICE_*: want Starter < Pro < Team (upgrades go up)"))
	}
	if n, err := strconv.Atoi(get("KUDOS_TRIAL_RECORDINGS")); err != nil || n < 0 {
		errs = append(errs, fmt.Errorf("KUDOS_TRIAL_RECORDINGS: want a whole number ≥ 0, got %q", get("KUDOS_TRIAL_RECORDINGS")))
	} else {
		c.TrialRecordings = n
	}
	if err := c.LogLevel.UnmarshalText([]byte(get("KUDOS_LOG_LEVEL"))); err != nil {
		errs = append(errs, fmt.Errorf("KUDOS_LOG_LEVEL: want debug, info, warn or error, got %q", get("KUDOS_LOG_LEVEL")))
	}
	if err := checkOrigin(c.PublicURL); err != nil {
		errs = append(errs, fmt.Errorf("KUDOS_PUBLIC_URL: %w", err))
	}
	if v := get("KUDOS_UI_ORIGINS"); v != "" {
		for _, o := range strings.Split(v, ",") {
			o = strings.TrimRight(strings.TrimSpace(o), "/")
			if err := checkOrigin(o); err != nil {
				errs = append(errs, fmt.Errorf("KUDOS_UI_ORIGINS: %w", err))
			}
			c.UIOrigins = append(c.UIOrigins, o)
		}
	} else {
		c.UIOrigins = []string{c.PublicURL}
		if u, err := url.Parse(c.PublicURL); err == nil && u.Hostname() == "127.0.0.1" {
			c.UIOrigins = append(c.UIOrigins, u.Scheme+"://localhost:"+u.Port())
		}
		if c.Env != Production { // the Vite dev server
			c.UIOrigins = append(c.UIOrigins, "http://127.0.0.1:5173", "http://localhost:5173")
		}
	}

	// Profiles show memory and can keep a CPU busy for as long as asked:
	// never beyond this machine, not even in production.
	if c.PprofAddr != "" && !loopback(c.PprofAddr) {
		errs = append(errs, fmt.Errorf("KUDOS_PPROF_ADDR=%s: the profiling listener listens on loopback only (127.0.0.1, ::1, localhost), e.g. KUDOS_PPROF_ADDR=127.0.0.1:6060; leave it empty to turn it off", c.PprofAddr))
	}
	switch c.Env {
	case Development:
		// Development serves /dev/mailbox (every reset link) and signs with a
		// known secret: it never listens beyond this machine, so that a
		// container that forgot KUDOS_ENV=production is not open to the world.
		for _, v := range []struct{ name, addr string }{{"KUDOS_HTTP_ADDR", c.HTTPAddr}, {"KUDOS_METRICS_ADDR", c.MetricsAddr},
			{"KUDOS_DEV_SMTP_ADDR", c.DevSMTPAddr}, {"KUDOS_DEV_OIDC_ADDR", c.DevOIDCAddr}, {"KUDOS_DEV_S3_ADDR", c.DevS3Addr}} {
			if !loopback(v.addr) {
				errs = append(errs, fmt.Errorf("%s=%s: development mode listens on loopback only (127.0.0.1, ::1, localhost); set KUDOS_ENV=production to serve beyond this machine", v.name, v.addr))
			}
		}
		if c.JWTSecret == "" {
			c.JWTSecret = devJWTSecret
		}
		if mfaKey == "" {
			mfaKey = devMFAKey
		}
		if c.PaymentProvider == "" {
			c.PaymentProvider = "sandbox"
		}
		if c.VATChecker == "" {
			c.VATChecker = "standin"
		}
		if c.S3Endpoint == "" { // the local S3, run by the api process
			c.S3Endpoint, c.S3PathStyle = "http://"+c.DevS3Addr, true
			c.S3AccessKey, c.S3SecretKey = "kudos-dev", "kudos-dev-secret" // devstack.S3AccessKey/S3SecretKey
			c.UsesDevS3 = true
		}
		if c.S3PublicURL == "" {
			c.S3PublicURL = c.S3Endpoint + "/" + c.S3Bucket
		}
	case Production:
		if c.JWTSecret == "" || c.JWTSecret == devJWTSecret {
			errs = append(errs, errors.New("KUDOS_JWT_SECRET is required in production (at least 32 random bytes)"))
		}
		if mfaKey == "" || mfaKey == devMFAKey {
			errs = append(errs, errors.New("KUDOS_MFA_KEY is required in production (32 random bytes, base64: openssl rand -base64 32)"))
		}
		if u, err := url.Parse(c.PublicURL); err == nil && u.Scheme != "https" {
			errs = append(errs, fmt.Errorf("KUDOS_PUBLIC_URL must be https in production, got %q", c.PublicURL))
		}
		if getenv("KUDOS_PUBLIC_URL") == "" {
			errs = append(errs, errors.New("KUDOS_PUBLIC_URL is required in production (the https origin users reach the app at)"))
		}
		if getenv("DATABASE_URL") == "" {
			errs = append(errs, errors.New("DATABASE_URL is required in production (the default is the development cluster)"))
		}
		if c.SMTPURL == "" {
			errs = append(errs, errors.New("SMTP_URL is required in production (the capture inbox is for development only)"))
		}
		if c.GoogleClientID == "" || c.GoogleClientSecret == "" {
			errs = append(errs, errors.New("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are required in production (the local OIDC provider is for development only)"))
		}
		if c.OIDCIssuer == "" {
			c.OIDCIssuer = "https://accounts.google.com"
		}
		if c.PaymentProvider == "" {
			c.PaymentProvider = "stripe"
		}
		if c.PaymentProvider == "sandbox" {
			errs = append(errs, errors.New("KUDOS_PAYMENT_PROVIDER=sandbox is for development only"))
		}
		if c.VATChecker == "" {
			c.VATChecker = "vies"
		}
		if c.VATChecker == "standin" {
			errs = append(errs, errors.New("KUDOS_VAT_CHECKER=standin is for development only"))
		}
		if c.S3PublicURL == "" {
			errs = append(errs, errors.New("KUDOS_S3_PUBLIC_URL is required in production (the local S3 is for development only)"))
		}
	default:
		errs = append(errs, fmt.Errorf("KUDOS_ENV: want development or production, got %q", c.Env))
	}
	switch c.PaymentProvider {
	case "sandbox":
	case "stripe":
		if c.StripeSecretKey == "" || c.StripeWebhookSecret == "" {
			errs = append(errs, errors.New("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are required with the stripe payment provider"))
		}
	default:
		errs = append(errs, fmt.Errorf("KUDOS_PAYMENT_PROVIDER: want sandbox or stripe, got %q", c.PaymentProvider))
	}
	if c.VATChecker != "standin" && c.VATChecker != "vies" {
		errs = append(errs, fmt.Errorf("KUDOS_VAT_CHECKER: want standin or vies, got %q", c.VATChecker))
	}
	if !kudos.IsEUMember(c.SellerCountry) {
		errs = append(errs, fmt.Errorf("KUDOS_SELLER_COUNTRY: want the ISO 3166 code of an EU member state such as NL, got %q", c.SellerCountry))
	} else if c.SellerCountry != kudos.SellerCountry {
		// The reverse-charge decision and the seller printed on every
		// invoice (invoicepdf.DefaultSeller) must name the same member state.
		errs = append(errs, fmt.Errorf("KUDOS_SELLER_COUNTRY: the invoices' seller is established in %s, got %q",
			kudos.SellerCountry, c.SellerCountry))
	}
	if u, err := url.Parse(c.VIESURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		errs = append(errs, fmt.Errorf("KUDOS_VIES_URL: want an http(s) URL, got %q", c.VIESURL))
	}
	if len(c.JWTSecret) < 32 {
		errs = append(errs, errors.New("KUDOS_JWT_SECRET: want at least 32 bytes"))
	}
	errs = append(errs, c.loadPreviousSecrets(get("KUDOS_JWT_PREVIOUS_SECRETS"))...)
	if mfaKey != "" {
		if k, err := base64.StdEncoding.DecodeString(mfaKey); err != nil || len(k) != 32 {
			errs = append(errs, errors.New("KUDOS_MFA_KEY: want 32 bytes in base64 (openssl rand -base64 32)"))
		} else {
			c.MFAKey = k
		}
	}
	if c.SMTPURL != "" {
		if u, err := url.Parse(c.SMTPURL); err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
			errs = append(errs, errors.New("SMTP_URL: want smtp://[user:pass@]host:port or smtps://…"))
		}
	}
	// TLS is required for mail in production: opportunistic STARTTLS can be
	// stripped by anyone on the path, and mails carry reset links.
	c.SMTPRequireTLS = c.Env == Production && !c.SMTPInsecure
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("configuration is invalid:\n%w", err)
	}
	return c, nil
}

// IsDevelopment reports whether local stand-ins and /dev routes are enabled.
func (c *Config) IsDevelopment() bool { return c.Env == Development }

// AllowedOrigin reports whether origin (scheme://host[:port]) is one of the
// configured UI origins.
func (c *Config) AllowedOrigin(origin string) bool {
	origin = strings.TrimRight(origin, "/")
	for _, o := range c.UIOrigins {
		if o == origin {
			return true
		}
	}
	return false
}

// LogValue lets slog print the configuration with secrets redacted.
func (c *Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("env", c.Env),
		slog.String("http_addr", c.HTTPAddr),
		slog.String("public_url", c.PublicURL),
		slog.Any("ui_origins", c.UIOrigins),
		slog.String("database", redactURL(c.DatabaseURL)),
		slog.String("temporal", c.TemporalAddress),
		slog.String("namespace", c.TemporalNamespace),
		slog.Bool("temporal_tls", c.Temporal.TLS),
		slog.Bool("temporal_client_cert", c.Temporal.CertFile != ""),
		slog.Bool("temporal_api_key", c.Temporal.APIKey != ""),
		slog.String("task_queue", c.TaskQueue),
		slog.String("smtp", redactURL(c.SMTPURL)),
		slog.Duration("trial", c.TrialDuration),
		slog.Duration("billing_period", c.BillingPeriod),
	)
}

// loadPreviousSecrets parses KUDOS_JWT_PREVIOUS_SECRETS: each at least 32
// bytes, none the current secret, and never the development secret in
// production.
func (c *Config) loadPreviousSecrets(v string) []error {
	if v == "" {
		return nil
	}
	var errs []error
	for i, p := range strings.Split(v, ",") {
		p = strings.TrimSpace(p)
		switch {
		case len(p) < 32:
			errs = append(errs, fmt.Errorf("KUDOS_JWT_PREVIOUS_SECRETS: entry %d: want at least 32 bytes", i+1))
		case p == c.JWTSecret:
			errs = append(errs, fmt.Errorf("KUDOS_JWT_PREVIOUS_SECRETS: entry %d is KUDOS_JWT_SECRET itself", i+1))
		case p == devJWTSecret && c.Env == Production:
			errs = append(errs, fmt.Errorf("KUDOS_JWT_PREVIOUS_SECRETS: entry %d is the development secret", i+1))
		default:
			c.JWTPreviousSecrets = append(c.JWTPreviousSecrets, p)
		}
	}
	return errs
}

// optionalDur parses a duration that may be 0 (off).
func optionalDur(v, name string, errs *[]error) time.Duration {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		*errs = append(*errs, fmt.Errorf("%s: want a Go duration such as 72h, or 0 for none, got %q", name, v))
	}
	return d
}

// dunningSchedule parses KUDOS_DUNNING_SCHEDULE: comma-separated, strictly
// increasing positive durations ("none" for no retries).
func dunningSchedule(v string, errs *[]error) []time.Duration {
	var out []time.Duration
	if v == "none" {
		return nil
	}
	for _, part := range strings.Split(v, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d <= 0 || (len(out) > 0 && d <= out[len(out)-1]) {
			*errs = append(*errs, fmt.Errorf("KUDOS_DUNNING_SCHEDULE: want increasing positive Go durations separated by commas such as 72h,120h,168h, got %q", v))
			return nil
		}
		out = append(out, d)
	}
	return out
}
