package bench

import (
	"net/http"
	"strconv"
	"time"
)

// The fake Stripe's refunds (issue 36): each paid session's payment is a
// PaymentIntent pi_<session> with its charge ch_<session>, and RefundAll
// makes one refund of each (or of some), as an operator in Stripe's
// dashboard would.
// Kudos reads both back when their events come (charge.refunded lists the
// charge's refunds, then reads the PaymentIntent's metadata).

type fakeRefund struct {
	ID            string            `json:"id"`
	Object        string            `json:"object"`
	Amount        int64             `json:"amount"`
	Charge        string            `json:"charge"`
	Created       int64             `json:"created"`
	Currency      string            `json:"currency"`
	PaymentIntent string            `json:"payment_intent"`
	Status        string            `json:"status"`
	Metadata      map[string]string `json:"metadata"`
}

// registerRefunds adds the refund routes to mux.
func (f *FakeStripe) registerRefunds(mux *http.ServeMux) {
	mux.HandleFunc("GET /v1/payment_intents/{id}", f.getIntent)
	mux.HandleFunc("GET /v1/refunds", f.listRefunds)
	mux.HandleFunc("GET /v1/refunds/{id}", f.getRefund)
}

// BenchRefund is a refund RefundAll made: its charge and refund ids.
type BenchRefund struct{ ChargeID, RefundID string }

// RefundAll refunds amount (minor units) of the paid session's payment of
// every account in accounts (nil: of every paid session), once, and
// returns the refunds by account.
func (f *FakeStripe) RefundAll(amount int64, accounts map[string]bool) map[string]BenchRefund {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refunds == nil {
		f.refunds = map[string]*fakeRefund{}
	}
	out := map[string]BenchRefund{}
	for _, s := range f.sessions {
		if s.Payment != "paid" || accounts != nil && !accounts[s.Metadata["account_id"]] {
			continue
		}
		r := &fakeRefund{ID: "re_" + s.ID, Object: "refund", Amount: amount, Charge: "ch_" + s.ID, Created: time.Now().Unix(),
			Currency: "eur", PaymentIntent: "pi_" + s.ID, Status: "succeeded", Metadata: map[string]string{}}
		f.refunds[r.ID] = r
		out[s.Metadata["account_id"]] = BenchRefund{ChargeID: r.Charge, RefundID: r.ID}
	}
	return out
}

func (f *FakeStripe) getIntent(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := r.PathValue("id")
	s, ok := f.sessions[id[min(len(id), len("pi_")):]]
	if !ok || len(id) < 3 || id[:3] != "pi_" {
		stripeError(w, http.StatusNotFound, "resource_missing", "No such payment_intent")
		return
	}
	writeJSON(w, map[string]any{"id": id, "object": "payment_intent", "status": "succeeded", "currency": "eur",
		"customer": s.Customer, "metadata": s.Metadata})
}

func (f *FakeStripe) listRefunds(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	charge, intent := r.URL.Query().Get("charge"), r.URL.Query().Get("payment_intent")
	data := []*fakeRefund{}
	for _, rf := range f.refunds {
		if charge != "" && rf.Charge == charge || intent != "" && rf.PaymentIntent == intent {
			data = append(data, rf)
		}
	}
	writeJSON(w, map[string]any{"object": "list", "url": "/v1/refunds", "has_more": false, "data": data})
}

func (f *FakeStripe) getRefund(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rf, ok := f.refunds[r.PathValue("id")]
	if !ok {
		stripeError(w, http.StatusNotFound, "resource_missing", "No such refund: "+strconv.Quote(r.PathValue("id")))
		return
	}
	writeJSON(w, rf)
}
