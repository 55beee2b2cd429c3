package bench

import (
	"encoding/json"
	"time"
)

// The fake Stripe's disputes (issue 36): a card network's chargeback of a
// paid session's payment (its charge ch_<session>, PaymentIntent
// pi_<session>, as for refunds). Kudos reads a dispute from its event's
// own object and reads the PaymentIntent back for the account and the
// checkout (getIntent), so the fake keeps no disputes: DisputeAll names
// them and BenchDispute.Event writes their events as Stripe does.

// BenchDispute is a dispute DisputeAll opened: its id, the disputed
// payment's charge and PaymentIntent, and the amount in minor units.
type BenchDispute struct {
	ID, ChargeID, IntentID string
	Amount                 int64
}

// DisputeAll opens a dispute of amounts[account] (minor units: the whole
// payment, as a chargeback usually is) on the paid session's payment of
// each account in amounts, and returns them by account.
func (f *FakeStripe) DisputeAll(amounts map[string]int64) map[string]BenchDispute {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]BenchDispute{}
	for _, s := range f.sessions {
		amount, ok := amounts[s.Metadata["account_id"]]
		if !ok || s.Payment != "paid" {
			continue
		}
		out[s.Metadata["account_id"]] = BenchDispute{ID: "dp_" + s.ID, ChargeID: "ch_" + s.ID, IntentID: "pi_" + s.ID, Amount: amount}
	}
	return out
}

// Event is the Stripe event eventID of type typ (charge.dispute.created or
// charge.dispute.closed) announcing the dispute at status (needs_response
// while open; won or lost once closed), created at created.
func (d BenchDispute) Event(eventID, typ, status string, created time.Time) []byte {
	b, _ := json.Marshal(map[string]any{"id": eventID, "object": "event", "api_version": "2025-01-27.acacia", "created": created.Unix(),
		"type": typ, "livemode": false, "pending_webhooks": 1, "data": map[string]any{"object": map[string]any{
			"id": d.ID, "object": "dispute", "amount": d.Amount, "currency": "eur", "charge": d.ChargeID, "payment_intent": d.IntentID,
			"reason": "fraudulent", "status": status, "created": created.Unix(), "livemode": false, "is_charge_refundable": false,
			"balance_transactions": []any{}, "metadata": map[string]string{},
			"evidence_details": map[string]any{"due_by": created.Add(21 * 24 * time.Hour).Unix(), "has_evidence": false,
				"past_due": false, "submission_count": 0},
			"payment_method_details": map[string]any{"type": "card", "card": map[string]any{"brand": "visa", "network_reason_code": "10.4"}}}}})
	return b
}
