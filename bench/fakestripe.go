package bench

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// FakeStripe is the part of Stripe's API that a checkout and its webhook
// touch (customers, Checkout Sessions), kept in memory. The payment-intake
// benchmark needs it because Kudos reads every webhook's session back from
// Stripe (stripepay.ParseWebhook), and stripe-mock answers that read with a
// fixture that names none of our accounts. It answers at once, so the
// benchmark measures Kudos, not a network round trip to Stripe.
type FakeStripe struct {
	srv *http.Server

	mu       sync.Mutex
	n        int
	sessions map[string]*fakeSession
	byKey    map[string]string // idempotency key → session id
	refunds  map[string]*fakeRefund
	addr     string // where it listens
}

type fakeSession struct {
	ID        string            `json:"id"`
	Object    string            `json:"object"`
	URL       string            `json:"url"`
	Status    string            `json:"status"`
	Payment   string            `json:"payment_status"`
	Mode      string            `json:"mode"`
	Customer  string            `json:"customer"`
	ExpiresAt int64             `json:"expires_at"`
	Metadata  map[string]string `json:"metadata"`
}

// StartFakeStripe serves the fake API on addr.
func StartFakeStripe(addr string) (*FakeStripe, error) {
	f := &FakeStripe{sessions: map[string]*fakeSession{}, byKey: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/customers", f.createCustomer)
	mux.HandleFunc("POST /v1/checkout/sessions", f.createSession)
	mux.HandleFunc("GET /v1/checkout/sessions/{id}", f.getSession)
	mux.HandleFunc("POST /v1/checkout/sessions/{id}/expire", f.expireSession)
	f.registerRefunds(mux)
	// Off-session renewal charges (the renewal benchmark): every customer
	// has one saved card, and every PaymentIntent succeeds at once.
	mux.HandleFunc("GET /v1/customers/{id}", f.getCustomer)
	mux.HandleFunc("GET /v1/customers/{id}/payment_methods", emptyList)
	mux.HandleFunc("GET /v1/payment_intents", emptyList)
	mux.HandleFunc("POST /v1/payment_intents", f.createPaymentIntent)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		stripeError(w, http.StatusNotFound, "resource_missing", "the bench's fake Stripe has no "+r.Method+" "+r.URL.Path)
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("fake Stripe: %w", err)
	}
	f.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	f.addr = ln.Addr().String()
	go func() { _ = f.srv.Serve(ln) }()
	return f, nil
}

// Close stops the server.
func (f *FakeStripe) Close() error { return f.srv.Close() }

// PayAll marks every open session complete and paid: what a customer
// finishing the hosted checkout does before Stripe sends its event.
func (f *FakeStripe) PayAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.sessions {
		if s.Status == "open" {
			s.Status, s.Payment = "complete", "paid"
		}
	}
}

// SessionsByAccount maps each account (metadata account_id) to its last
// session id.
func (f *FakeStripe) SessionsByAccount() map[string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]string{}
	for _, s := range f.sessions {
		out[s.Metadata["account_id"]] = s.ID
	}
	return out
}

func (f *FakeStripe) createCustomer(w http.ResponseWriter, _ *http.Request) {
	f.mu.Lock()
	f.n++
	id := "cus_bench_" + strconv.Itoa(f.n)
	f.mu.Unlock()
	writeJSON(w, map[string]any{"id": id, "object": "customer"})
}

func (f *FakeStripe) createSession(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		stripeError(w, http.StatusBadRequest, "parameter_invalid", err.Error())
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	key := r.Header.Get("Idempotency-Key")
	if id, ok := f.byKey[key]; ok && key != "" {
		writeJSON(w, f.sessions[id])
		return
	}
	f.n++
	id := "cs_bench_" + strconv.Itoa(f.n)
	expires, _ := strconv.ParseInt(r.PostForm.Get("expires_at"), 10, 64)
	s := &fakeSession{ID: id, Object: "checkout.session", URL: "https://checkout.stripe.com/c/pay/" + id, Status: "open",
		Payment: "unpaid", Mode: r.PostForm.Get("mode"), Customer: r.PostForm.Get("customer"), ExpiresAt: expires,
		Metadata: map[string]string{}}
	for _, k := range []string{"account_id", "checkout_id", "purpose"} {
		s.Metadata[k] = r.PostForm.Get("metadata[" + k + "]")
	}
	f.sessions[id] = s
	f.byKey[key] = id
	writeJSON(w, s)
}

func (f *FakeStripe) getSession(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[r.PathValue("id")]
	if !ok {
		stripeError(w, http.StatusNotFound, "resource_missing", "No such checkout.session")
		return
	}
	writeJSON(w, s)
}

func (f *FakeStripe) expireSession(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[r.PathValue("id")]
	switch {
	case !ok:
		stripeError(w, http.StatusNotFound, "resource_missing", "No such checkout.session")
	case s.Status != "open":
		stripeError(w, http.StatusBadRequest, "checkout_session_not_open", "this session is not open")
	default:
		s.Status = "expired"
		writeJSON(w, s)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func stripeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"type": "invalid_request_error", "code": code, "message": msg}})
}

// benchCard is the saved card of every customer of the fake.
var benchCard = map[string]any{"id": "pm_bench_card", "object": "payment_method", "type": "card", "created": 1}

func (f *FakeStripe) getCustomer(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{"id": r.PathValue("id"), "object": "customer",
		"invoice_settings": map[string]any{"default_payment_method": benchCard}})
}

func (f *FakeStripe) createPaymentIntent(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		stripeError(w, http.StatusBadRequest, "parameter_invalid", err.Error())
		return
	}
	f.mu.Lock()
	f.n++
	id := "pi_bench_" + strconv.Itoa(f.n)
	f.mu.Unlock()
	amount, _ := strconv.ParseInt(r.PostForm.Get("amount"), 10, 64)
	writeJSON(w, map[string]any{"id": id, "object": "payment_intent", "status": "succeeded", "amount": amount,
		"currency": r.PostForm.Get("currency"), "customer": r.PostForm.Get("customer"),
		"metadata": map[string]string{"account_id": r.PostForm.Get("metadata[account_id]"), "charge_id": r.PostForm.Get("metadata[charge_id]")}})
}

// emptyList answers a Stripe list with no items.
func emptyList(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{"object": "list", "data": []any{}, "has_more": false, "url": r.URL.Path})
}
