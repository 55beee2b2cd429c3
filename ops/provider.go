package ops

import (
	"fmt"
	"io"
	"text/tabwriter"

	"kudos/workflows"
)

// differenceMeaning says, for each kind of difference, what it means and
// what ops do (docs/runbook-payments.md, "The ledger differs from the
// provider's").
var differenceMeaning = map[string]string{
	"payment_missing":  "paid at the provider, unknown to Kudos",
	"payment_amount":   "paid at the provider, booked by Kudos at another amount",
	"payment_unknown":  "booked as paid by Kudos, not paid at the provider",
	"refund_missing":   "refunded at the provider (its dashboard?), unknown to Kudos",
	"refund_amount":    "refunded at the provider, recorded by Kudos at another amount",
	"refund_unknown":   "recorded as refunded by Kudos, not refunded at the provider",
	"dispute_missing":  "disputed at the provider, not booked by Kudos though its repair was applied",
	"dispute_status":   "disputed at the provider, booked by Kudos at another status (a decision is never reopened)",
	"dispute_amount":   "disputed at the provider, booked by Kudos at another amount",
	"dispute_unknown":  "a dispute booked by Kudos that the provider does not list",
	"event_unreadable": "an event of the provider the intake refuses",
}

// WriteProviderReport writes what `kudos ops reconcile-provider` prints:
// the window compared, what the provider listed, the events repaired, and
// every difference left, or "no difference" when the ledgers agree (the
// normal state).
func WriteProviderReport(out io.Writer, r workflows.ProviderReconcileReport) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("PROVIDER RECONCILIATION %s  %s → %s", r.Provider, ts(&r.Since), ts(&r.Until))
	p("  the provider listed %d event(s), %d payment(s), %d refund(s), %d dispute(s)", r.Events, r.Payments, r.Refunds, r.Disputes)
	if len(r.Repaired) > 0 {
		p("  repaired: %d event(s) never delivered (or booking a dispute as the provider shows it), recorded and applied through the webhook's intake",
			len(r.Repaired))
		for _, id := range r.Repaired {
			p("    %s", id)
		}
	}
	if r.Drift == 0 {
		p("  no difference: Kudos's ledger agrees with the provider's")
		return w.Flush()
	}
	p("  %d difference(s) left (kudos_ledger_drift):", r.Drift)
	p("    KIND\tACCOUNT\tREFERENCE\tAMOUNT\tAT\tMEANING")
	for _, d := range r.Differences {
		amount := money(d.Amount, d.Currency)
		switch {
		case d.Kind == "payment_amount" || d.Kind == "refund_amount" || d.Kind == "dispute_amount":
			amount += " (Kudos: " + money(d.Kudos, d.Currency) + ")"
		case d.Status != "":
			amount += " (provider: " + d.Status + ", Kudos: " + orNone(d.KudosStatus) + ")"
		}
		p("    %s\t%s\t%s\t%s\t%s\t%s", d.Kind, orNone(d.AccountID), d.Reference, amount, ts(&d.At), differenceMeaning[d.Kind])
	}
	if n := r.Drift - len(r.Differences); n > 0 {
		p("    … and %d more", n)
	}
	return w.Flush()
}
