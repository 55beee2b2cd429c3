// Package stripepay is the Stripe adapter of kudos.PaymentProvider: hosted
// Checkout Sessions for first payments, upgrades, invoices and new payment
// methods; off-session PaymentIntents for renewals; the customer's saved
// payment methods; and verified webhooks turned into kudos.PaymentEvents.
//
// Every account gets one Stripe customer, created the first time a checkout
// needs it and remembered through a CustomerStore, so that the cards saved
// by checkouts can be charged later without the customer present.
package stripepay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"

	"kudos"
	"kudos/tracing"
)

// Metadata keys written on Stripe objects. The webhook intake reads them back
// to find the checkout and the account an event belongs to.
const (
	metaAccountID  = "account_id"
	metaCheckoutID = "checkout_id"
	metaPurpose    = "purpose"
	metaChargeID   = "charge_id"
)

// Config is what the provider needs from the environment.
type Config struct {
	// SecretKey is the Stripe secret API key (sk_live_… or sk_test_…).
	SecretKey string
	// WebhookSecret is the signing secret of the webhook endpoint (whsec_…).
	WebhookSecret string
	// APIBaseURL overrides Stripe's API address; empty means Stripe's own.
	// Tests point it at stripe-mock.
	APIBaseURL string
	// Currency is the ISO 4217 code used when a request carries none, and
	// for setup-mode checkouts, which Stripe wants a currency for.
	Currency string
}

// CustomerStore remembers the Stripe customer of each account, so that every
// account has exactly one and its saved payment methods stay together.
type CustomerStore interface {
	// StripeCustomer returns the account's Stripe customer id, "" when none.
	StripeCustomer(ctx context.Context, accountID uuid.UUID) (string, error)
	// SaveStripeCustomer records the account's Stripe customer id and the
	// e-mail address it was made with.
	SaveStripeCustomer(ctx context.Context, accountID uuid.UUID, customerID, email string) error
	// StripeCustomerEmail is the e-mail address last sent to the account's
	// Stripe customer ("" : not known).
	StripeCustomerEmail(ctx context.Context, accountID uuid.UUID) (string, error)
	// SaveStripeCustomerEmail records the address sent to it.
	SaveStripeCustomerEmail(ctx context.Context, accountID uuid.UUID, email string) error
}

// Provider is the Stripe kudos.PaymentProvider. It is safe for concurrent use.
type Provider struct {
	sc            *stripe.Client
	webhookSecret string
	currency      string
	customers     CustomerStore
	now           func() time.Time
}

var _ kudos.PaymentProvider = (*Provider)(nil)

// New returns a Provider talking to Stripe (or to cfg.APIBaseURL) with the
// stripe-go defaults: an 80 s HTTP timeout and two retries of network
// failures, 409s and 5xx answers, each under the same idempotency key.
func New(cfg Config, customers CustomerStore) (*Provider, error) {
	return newProvider(cfg, customers, newHTTPClient(), 2)
}

// maxIdleConns is how many idle connections to Stripe are kept for reuse.
const maxIdleConns = 64

// newHTTPClient is stripe-go's client (an 80 s timeout) on a transport that
// keeps up to maxIdleConns connections to Stripe. Go's default keeps two per
// host: with more requests than that at once (a burst of webhooks, each
// reading its session back), every other one would open a new connection
// and pay a TLS handshake.
func newHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = maxIdleConns, maxIdleConns
	// Each call to Stripe is a span of the caller's trace (tracing.Transport:
	// method, host, path and status; never the form body or the key).
	return &http.Client{Timeout: 80 * time.Second, Transport: tracing.Transport("stripe", t)}
}

// newProvider is New with the HTTP client and the retry count exposed, so
// that tests can record requests and fail fast.
func newProvider(cfg Config, customers CustomerStore, hc *http.Client, retries int64) (*Provider, error) {
	switch {
	case cfg.SecretKey == "":
		return nil, errors.New("stripepay: a secret key is required")
	case cfg.WebhookSecret == "":
		return nil, errors.New("stripepay: a webhook secret is required")
	case len(cfg.Currency) != 3:
		return nil, fmt.Errorf("stripepay: want a 3-letter currency code, got %q", cfg.Currency)
	case customers == nil:
		return nil, errors.New("stripepay: a customer store is required")
	}
	bc := &stripe.BackendConfig{
		HTTPClient:        hc,
		MaxNetworkRetries: stripe.Int64(retries),
		// Every failure is returned to the caller, which logs it with its
		// own context; stripe-go's own stderr logging would only repeat it.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.APIBaseURL != "" {
		u, err := url.Parse(cfg.APIBaseURL)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("stripepay: invalid API base URL %q", cfg.APIBaseURL)
		}
		bc.URL = stripe.String(strings.TrimRight(cfg.APIBaseURL, "/"))
	}
	return &Provider{
		sc:            stripe.NewClient(cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc))),
		webhookSecret: cfg.WebhookSecret,
		currency:      strings.ToLower(cfg.Currency),
		customers:     customers,
		now:           time.Now,
	}, nil
}

// Name implements kudos.PaymentProvider.
func (p *Provider) Name() string { return "stripe" }

// CheckoutOrigin implements kudos.PaymentProvider: every Checkout Session URL
// is on Stripe's hosted checkout domain.
func (p *Provider) CheckoutOrigin() string { return "https://checkout.stripe.com" }

// customerID returns the account's Stripe customer, "" when it has none yet.
func (p *Provider) customerID(ctx context.Context, accountID uuid.UUID) (string, error) {
	id, err := p.customers.StripeCustomer(ctx, accountID)
	if err != nil {
		return "", fmt.Errorf("stripepay: load customer of account %s: %w", accountID, err)
	}
	return id, nil
}

// ensureCustomer returns the account's Stripe customer, creating and saving
// it on first need. The idempotency key is derived from the account (and the
// e-mail, which Stripe wants identical under one key), so that a retry after
// a failed save, or two racing checkouts, get the same customer back.
func (p *Provider) ensureCustomer(ctx context.Context, accountID uuid.UUID, email string) (string, error) {
	id, err := p.customerID(ctx, accountID)
	if err != nil || id != "" {
		if err == nil {
			p.addressCustomer(ctx, accountID, id, email)
		}
		return id, err
	}
	params := &stripe.CustomerCreateParams{Metadata: map[string]string{metaAccountID: accountID.String()}}
	if email != "" {
		params.Email = stripe.String(email)
	}
	sum := sha256.Sum256([]byte(email))
	params.IdempotencyKey = stripe.String("kudos-customer-" + accountID.String() + "-" + hex.EncodeToString(sum[:8]))
	c, err := p.sc.V1Customers.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("stripepay: create customer of account %s: %w", accountID, err)
	}
	if err := p.customers.SaveStripeCustomer(ctx, accountID, c.ID, email); err != nil {
		return "", fmt.Errorf("stripepay: save customer of account %s: %w", accountID, err)
	}
	return c.ID, nil
}

// addressCustomer keeps the account's Stripe customer addressed to email,
// its owner's address now: Stripe mails its customer itself (SEPA mandate
// and pre-debit notices, receipts, the hosted page's e-mail), and an
// ownership transfer or a changed address would leave them with the one
// the customer was made with. The customer is updated only when email
// differs from the address last sent. A failure is logged, not returned:
// the payment goes on, and the next one tries again.
func (p *Provider) addressCustomer(ctx context.Context, accountID uuid.UUID, customer, email string) {
	if email == "" {
		return
	}
	sent, err := p.customers.StripeCustomerEmail(ctx, accountID)
	if err == nil && sent == email {
		return
	}
	if err == nil {
		_, err = p.sc.V1Customers.Update(ctx, customer, &stripe.CustomerUpdateParams{Email: stripe.String(email)})
	}
	if err == nil {
		err = p.customers.SaveStripeCustomerEmail(ctx, accountID, email)
	}
	if err != nil {
		slog.WarnContext(ctx, "stripepay: the customer's e-mail was not updated to the owner's: tried again at the next payment",
			"account", accountID, "customer", customer, "err", err)
	}
}

// stripeErr returns the Stripe API error inside err, or nil.
func stripeErr(err error) *stripe.Error {
	var se *stripe.Error
	if errors.As(err, &se) {
		return se
	}
	return nil
}

// isNotFound reports whether err is Stripe saying the object does not exist.
func isNotFound(err error) bool {
	se := stripeErr(err)
	return se != nil && (se.HTTPStatusCode == http.StatusNotFound || se.Code == stripe.ErrorCodeResourceMissing)
}

// refusedOr turns Stripe refusing a request for good (400 invalid request,
// 402 not a card decline, 404 unknown object; an amount under its minimum is
// a 400) into a kudos EInvalid error, a business outcome that retrying
// cannot change; anything else (the network, 5xx, 429, a bad API key an
// operator can fix) is returned wrapped, to be retried.
func refusedOr(err error, format string, args ...any) error {
	if se := stripeErr(err); se != nil && se.Type != stripe.ErrorTypeIdempotency {
		switch se.HTTPStatusCode {
		case http.StatusBadRequest, http.StatusPaymentRequired, http.StatusNotFound:
			return kudos.Errorf(kudos.EInvalid, "the payment provider refused the request: %s (%s)", se.Msg, se.Code)
		}
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
