package stripepay

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

func TestNew(t *testing.T) {
	valid := Config{SecretKey: "sk", WebhookSecret: "whsec", Currency: "EUR"}
	for _, tc := range []struct {
		name   string
		edit   func(*Config)
		store  CustomerStore
		wantOK bool
	}{
		{"valid", func(*Config) {}, &memStore{}, true},
		{"valid with API base", func(c *Config) { c.APIBaseURL = "http://127.0.0.1:12111/" }, &memStore{}, true},
		{"no secret key", func(c *Config) { c.SecretKey = "" }, &memStore{}, false},
		{"no webhook secret", func(c *Config) { c.WebhookSecret = "" }, &memStore{}, false},
		{"bad currency", func(c *Config) { c.Currency = "EURO" }, &memStore{}, false},
		{"bad API base", func(c *Config) { c.APIBaseURL = "localhost" }, &memStore{}, false},
		{"no store", func(*Config) {}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := valid
			tc.edit(&cfg)
			p, err := New(cfg, tc.store)
			if (err == nil) != tc.wantOK {
				t.Fatalf("New: err = %v, want ok %v", err, tc.wantOK)
			}
			if err == nil && (p.Name() != "stripe" || p.CheckoutOrigin() != "https://checkout.stripe.com") {
				t.Errorf("Name, CheckoutOrigin = %q, %q", p.Name(), p.CheckoutOrigin())
			}
		})
	}
}

func TestCreateCheckout(t *testing.T) {
	account := uuid.New()
	for _, tc := range []struct {
		name        string
		purpose     kudos.CheckoutPurpose
		expiresIn   time.Duration
		wantMode    string
		wantExpires time.Duration // 0: no expires_at sent
	}{
		{"subscription", kudos.CheckoutSubscription, 2 * time.Hour, "payment", 2 * time.Hour},
		{"upgrade expiring too soon", kudos.CheckoutUpgrade, 5 * time.Minute, "payment", minCheckoutTTL},
		{"invoice expiring too late", kudos.CheckoutInvoice, 72 * time.Hour, "payment", maxCheckoutTTL},
		{"renewal needing authentication", kudos.CheckoutRenewal, 3 * time.Hour, "payment", 3 * time.Hour},
		// Every checkout that takes a payment is one (a purpose left out
		// was refused as unknown: extra seats could not be sold).
		{"extra seats", kudos.CheckoutSeats, 2 * time.Hour, "payment", 2 * time.Hour},
		{"payment method without expiry", kudos.CheckoutPaymentMethod, 0, "setup", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, rec, _ := newTestProvider(t, nil)
			now := time.Unix(1_800_000_000, 0)
			p.now = func() time.Time { return now }
			req := kudos.CheckoutRequest{
				CheckoutID: "chk_" + tc.name, AccountID: account, CustomerEmail: "ann@example.com",
				Purpose: tc.purpose, Description: "Kudos Pro, one year",
				Amount:     kudos.Money{Amount: 56628, Currency: "EUR"},
				SuccessURL: "https://app.example/ok", CancelURL: "https://app.example/cancel",
			}
			if tc.expiresIn > 0 {
				req.ExpiresAt = now.Add(tc.expiresIn)
			}
			co, err := p.CreateCheckout(context.Background(), req)
			if err != nil {
				t.Fatalf("CreateCheckout: %v", err)
			}
			if co.ProviderID == "" || !strings.HasPrefix(co.URL, p.CheckoutOrigin()) {
				t.Errorf("checkout = %+v", co)
			}
			sent := rec.find(http.MethodPost, "/v1/checkout/sessions")
			if len(sent) != 1 {
				t.Fatalf("%d session creations, want 1", len(sent))
			}
			f, key := sent[0].Form, sent[0].IdempotencyKey
			want := map[string]string{
				"mode": tc.wantMode, "client_reference_id": req.CheckoutID,
				"success_url": req.SuccessURL, "cancel_url": req.CancelURL,
				"metadata[account_id]": account.String(), "metadata[checkout_id]": req.CheckoutID,
				"metadata[purpose]": string(tc.purpose),
			}
			if tc.wantMode == "payment" {
				want["line_items[0][price_data][unit_amount]"] = "56628"
				want["line_items[0][price_data][currency]"] = "eur"
				want["line_items[0][price_data][product_data][name]"] = req.Description
				want["line_items[0][quantity]"] = "1"
				want["payment_intent_data[setup_future_usage]"] = "off_session"
				want["payment_intent_data[metadata][account_id]"] = account.String()
				want["payment_intent_data[metadata][checkout_id]"] = req.CheckoutID
			} else {
				want["currency"] = "eur"
				want["setup_intent_data[metadata][checkout_id]"] = req.CheckoutID
				want["setup_intent_data[metadata][account_id]"] = account.String()
				if f.Has("line_items[0][price_data][unit_amount]") {
					t.Error("setup-mode session sent a line item")
				}
			}
			if tc.wantExpires > 0 {
				want["expires_at"] = strconv.FormatInt(now.Add(tc.wantExpires).Unix(), 10)
			} else if f.Has("expires_at") {
				t.Errorf("expires_at = %q, want none", f.Get("expires_at"))
			}
			for k, v := range want {
				if got := f.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			if key != req.CheckoutID {
				t.Errorf("Idempotency-Key = %q, want %q", key, req.CheckoutID)
			}
			if !f.Has("customer") {
				t.Error("session sent without a customer")
			}
		})
	}
}

func TestCreateCheckoutCustomerOnce(t *testing.T) {
	p, rec, store := newTestProvider(t, nil)
	account := uuid.New()
	for i, id := range []string{"chk_1", "chk_2"} {
		_, err := p.CreateCheckout(context.Background(), kudos.CheckoutRequest{
			CheckoutID: id, AccountID: account, CustomerEmail: "ann@example.com",
			Purpose: kudos.CheckoutSubscription, Description: "Kudos Starter",
			Amount: kudos.Money{Amount: 100, Currency: "eur"}, SuccessURL: "https://a/ok", CancelURL: "https://a/no",
		})
		if err != nil {
			t.Fatalf("checkout %d: %v", i, err)
		}
	}
	created := rec.find(http.MethodPost, "/v1/customers")
	if len(created) != 1 || store.saves != 1 {
		t.Fatalf("customers created %d, saved %d; want 1 and 1", len(created), store.saves)
	}
	if f := created[0].Form; f.Get("metadata[account_id]") != account.String() || f.Get("email") != "ann@example.com" {
		t.Errorf("customer params = %v", f)
	}
	if created[0].IdempotencyKey == "" {
		t.Error("customer created without an idempotency key")
	}
	saved, _ := store.StripeCustomer(context.Background(), account)
	for _, s := range rec.find(http.MethodPost, "/v1/checkout/sessions") {
		if s.Form.Get("customer") != saved {
			t.Errorf("session customer = %q, want the saved %q", s.Form.Get("customer"), saved)
		}
	}
}

func TestCreateCheckoutInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  kudos.CheckoutRequest
	}{
		{"no id", kudos.CheckoutRequest{Purpose: kudos.CheckoutSubscription, Amount: kudos.Money{Amount: 1}}},
		{"unknown purpose", kudos.CheckoutRequest{CheckoutID: "c", Purpose: "gift", Amount: kudos.Money{Amount: 1}}},
		{"no amount", kudos.CheckoutRequest{CheckoutID: "c", Purpose: kudos.CheckoutInvoice}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, rec, _ := newTestProvider(t, nil)
			tc.req.AccountID = uuid.New()
			if _, err := p.CreateCheckout(context.Background(), tc.req); err == nil {
				t.Fatal("CreateCheckout: no error")
			}
			if n := len(rec.find(http.MethodPost, "/v1/checkout/sessions")); n != 0 {
				t.Errorf("%d sessions created", n)
			}
		})
	}
}

func TestExpireCheckout(t *testing.T) {
	const path = "/v1/checkout/sessions/cs_1"
	for _, tc := range []struct {
		name     string
		answers  map[string]canned
		want     kudos.PaymentOutcome
		wantCode string // "" success; kudos.EInternal: a plain error
	}{
		{"open session", nil, kudos.PaymentExpired, ""},
		{"already expired", map[string]canned{
			"POST " + path + "/expire": {400, stripeError("invalid_request_error", "", "")},
			"GET " + path:              {200, `{"id":"cs_1","object":"checkout.session","status":"expired"}`},
		}, kudos.PaymentExpired, ""},
		// Paid while the deadline passed: a payment, never an expiry.
		{"already complete and paid", map[string]canned{
			"POST " + path + "/expire": {400, stripeError("invalid_request_error", "", "")},
			"GET " + path:              {200, `{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"paid"}`},
		}, kudos.PaymentPaid, ""},
		{"complete, delayed payment settling", map[string]canned{
			"POST " + path + "/expire": {400, stripeError("invalid_request_error", "", "")},
			"GET " + path:              {200, `{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"unpaid","payment_intent":{"id":"pi_1","object":"payment_intent","status":"processing"}}`},
		}, kudos.PaymentPending, ""},
		// A delayed payment that failed leaves the session complete and
		// unpaid, like one still settling: its PaymentIntent tells them
		// apart (issue 25 item 2).
		{"complete, delayed payment failed", map[string]canned{
			"POST " + path + "/expire": {400, stripeError("invalid_request_error", "", "")},
			"GET " + path:              {200, `{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"unpaid","payment_intent":{"id":"pi_1","object":"payment_intent","status":"requires_payment_method"}}`},
		}, kudos.PaymentFailed, ""},
		{"complete, delayed payment cancelled", map[string]canned{
			"POST " + path + "/expire": {400, stripeError("invalid_request_error", "", "")},
			"GET " + path:              {200, `{"id":"cs_1","object":"checkout.session","status":"complete","payment_status":"unpaid","payment_intent":{"id":"pi_1","object":"payment_intent","status":"canceled"}}`},
		}, kudos.PaymentFailed, ""},
		{"bad request on an open session", map[string]canned{
			"POST " + path + "/expire": {400, stripeError("invalid_request_error", "", "")},
			"GET " + path:              {200, `{"id":"cs_1","object":"checkout.session","status":"open"}`},
		}, "", kudos.EInternal},
		{"unknown session", map[string]canned{
			"POST " + path + "/expire": {404, stripeError("invalid_request_error", "resource_missing", "")},
		}, "", kudos.ENotFound},
		{"stripe down", map[string]canned{
			"POST " + path + "/expire": {503, stripeError("api_error", "", "")},
		}, "", kudos.EInternal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, rec, _ := newTestProvider(t, tc.answers)
			got, err := p.ExpireCheckout(context.Background(), "cs_1")
			if code := kudos.ErrorCode(err); code != tc.wantCode || got != tc.want {
				t.Fatalf("ExpireCheckout: %q, code %q (%v), want %q, %q", got, code, err, tc.want, tc.wantCode)
			}
			if n := len(rec.find(http.MethodPost, path+"/expire")); n != 1 {
				t.Errorf("%d expire calls, want 1", n)
			}
		})
	}
}

func TestCreateCheckoutIdempotencyConflict(t *testing.T) {
	const create, list = "POST /v1/checkout/sessions", "GET /v1/checkout/sessions"
	const expire = "/v1/checkout/sessions/cs_first/expire"
	conflict := canned{400, stripeError("idempotency_error", "", "")}
	// listed is a list of the customer's open sessions: another
	// checkout's, then the first call's (its fields as JSON members).
	listed := func(first string) string {
		return `{"object":"list","has_more":false,"data":[
			{"id":"cs_other","object":"checkout.session","status":"open","mode":"payment","amount_total":100,"currency":"eur","metadata":{"checkout_id":"chk_0"}},
			{"id":"cs_first","object":"checkout.session","status":"open","url":"https://checkout.stripe.com/c/pay/cs_first","metadata":{"checkout_id":"chk_1"},` + first + `}]}`
	}
	pay := kudos.CheckoutRequest{Purpose: kudos.CheckoutSubscription, Description: "Kudos Pro", Amount: kudos.Money{Amount: 56628, Currency: "EUR"}}
	setup := kudos.CheckoutRequest{Purpose: kudos.CheckoutPaymentMethod, Amount: kudos.Money{Amount: 1, Currency: "EUR"}}
	for _, tc := range []struct {
		name       string
		req        kudos.CheckoutRequest
		listed     string
		expireFail bool
		wantID     string
		wantCode   string // "" no error
		wantExpire bool
	}{
		// The same checkout asked again (a clamped expires_at moved with
		// the clock): the first call's session is the answer.
		{name: "first call's setup session found", req: setup,
			listed: listed(`"mode":"setup","currency":"eur"`), wantID: "cs_first"},
		{name: "first call's payment session found", req: pay,
			listed: listed(`"mode":"payment","amount_total":56628,"currency":"eur"`), wantID: "cs_first"},
		// Priced again between the two calls (a VAT id verified, an
		// address edited): the first session is of another checkout. It
		// is expired (its page never reached the customer) and the call
		// refused, never answered with a page that takes the old total
		// for an invoice of the new one.
		{name: "first call's session for another amount", req: pay,
			listed: listed(`"mode":"payment","amount_total":46800,"currency":"eur"`), wantCode: kudos.EConflict, wantExpire: true},
		{name: "first call's session in another currency", req: pay,
			listed: listed(`"mode":"payment","amount_total":56628,"currency":"usd"`), wantCode: kudos.EConflict, wantExpire: true},
		{name: "first call's session of another mode", req: setup,
			listed: listed(`"mode":"payment","amount_total":56628,"currency":"eur"`), wantCode: kudos.EConflict, wantExpire: true},
		// Its expiry failing, the session is still open: an error worth
		// retrying, which finds it again.
		{name: "first call's session for another amount, its expiry failing", req: pay, expireFail: true,
			listed: listed(`"mode":"payment","amount_total":46800,"currency":"eur"`), wantCode: kudos.EInternal, wantExpire: true},
		{name: "nothing found", req: setup, listed: `{"object":"list","has_more":false,"data":[]}`, wantCode: kudos.EInternal},
		{name: "nothing found in stripe-mock's list", req: setup, wantCode: kudos.EInternal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answers := map[string]canned{create: conflict}
			if tc.listed != "" {
				answers[list] = canned{200, tc.listed}
			}
			if tc.expireFail {
				answers["POST "+expire] = canned{503, stripeError("api_error", "", "")}
			}
			p, rec, _ := newTestProvider(t, answers)
			req := tc.req
			req.CheckoutID, req.AccountID, req.SuccessURL, req.CancelURL = "chk_1", uuid.New(), "https://a/ok", "https://a/no"
			req.ExpiresAt = time.Now().Add(72 * time.Hour)
			co, err := p.CreateCheckout(context.Background(), req)
			if code := kudos.ErrorCode(err); code != tc.wantCode || co.ProviderID != tc.wantID {
				t.Fatalf("CreateCheckout = %+v, %v (code %q); want id %q, code %q", co, err, code, tc.wantID, tc.wantCode)
			}
			if l := rec.find(http.MethodGet, "/v1/checkout/sessions"); len(l) != 1 || l[0].Form.Get("customer") == "" {
				t.Errorf("session lookups = %+v, want one by customer", l)
			}
			if n := len(rec.find(http.MethodPost, expire)); (n == 1) != tc.wantExpire || n > 1 {
				t.Errorf("%d expiries of the first call's session, want it expired %v", n, tc.wantExpire)
			}
			if n := len(rec.find(http.MethodPost, "/v1/checkout/sessions/cs_other/expire")); n != 0 {
				t.Errorf("another checkout's session expired %d times", n)
			}
		})
	}
}
