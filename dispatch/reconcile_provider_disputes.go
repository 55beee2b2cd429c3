package dispatch

import (
	"context"
	"time"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// disputes compares the provider's disputes with Kudos's (the disputes
// table), a page at a time. A dispute Kudos has not booked, or booked open
// while the provider has decided it, is repaired: the event that books it
// as the provider shows it (kudos.ProviderDispute.Event) is recorded and
// applied through the webhook's intake, so that the subscription workflow
// books it once, as it would the provider's own event. A dispute whose
// event is recorded and not applied yet is on its way. What cannot be
// repaired is reported: a decision Kudos booked that the provider does not
// show (dispute_status: a decision is never reopened), another amount
// (dispute_amount), a repair applied that did not take (dispute_missing,
// dispute_status), and a dispute Kudos opened in the window that the
// provider did not list (dispute_unknown).
func (r *ProviderReconciler) disputes(ctx context.Context, run store.ProviderRun, since, now time.Time, rep *workflows.ProviderReconcileReport,
	progress func(string, int)) error {
	list := func(fn func(kudos.ProviderDispute) error) error {
		return r.Provider.ListDisputes(ctx, since, run.Until, fn)
	}
	err := paged(list, func(page []kudos.ProviderDispute) error {
		ids := make([]string, len(page))
		for i, d := range page {
			ids[i] = d.ID
		}
		if err := r.DB.SeeProviderItems(ctx, run.ID, "dispute", ids); err != nil {
			return err
		}
		booked, err := r.DB.BookedDisputes(ctx, ids)
		if err != nil {
			return err
		}
		repaired := false
		for _, d := range page {
			rep.Disputes++
			k := booked[d.ID]
			diff := workflows.LedgerDifference{AccountID: d.AccountID.String(), Reference: d.ID, Amount: d.Amount.Amount,
				Currency: d.Amount.Currency, At: d.Created, Status: string(d.Status), KudosStatus: string(k.Status)}
			switch {
			case k.Pending:
				continue
			case k.Booked && k.Status == d.Status:
				if k.Amount != d.Amount.Amount {
					diff.Kind, diff.Kudos = "dispute_amount", k.Amount
					differ(rep, diff)
				}
				continue
			case k.Booked && k.Status.Closed():
				diff.Kind = "dispute_status"
				differ(rep, diff)
				continue
			}
			ev := d.Event(r.Name, now)
			isNew, err := r.DB.RecordPaymentEvent(ctx, ev, PaymentEvent)
			if err != nil {
				return err
			}
			if !isNew { // repaired before, applied, and Kudos still differs
				diff.Kind = "dispute_missing"
				if k.Booked {
					diff.Kind = "dispute_status"
				}
				differ(rep, diff)
				continue
			}
			repaired = true
			rep.Repaired = append(rep.Repaired, ev.EventID)
			r.Log.Warn("provider reconciliation: a dispute was not booked as the provider shows it, recorded now", "provider", r.Name,
				"dispute", d.ID, "status", d.Status, "kudos_status", k.Status, "account", d.AccountID)
		}
		if repaired && r.Kick != nil {
			r.Kick()
		}
		progress("disputes", rep.Disputes)
		return nil
	})
	if err != nil {
		return err
	}
	return unseen(ctx, run, rep, "dispute_unknown", r.DB.UnseenDisputes)
}
