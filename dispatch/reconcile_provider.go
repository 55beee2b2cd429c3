package dispatch

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"kudos"
	"kudos/store"
	"kudos/workflows"
)

// ProviderLedgerStore is the part of the store the provider
// reconciliation uses (*store.DB).
type ProviderLedgerStore interface {
	WithProviderLock(ctx context.Context, provider string, fn func() error) error
	BeginProviderReconciliation(ctx context.Context, provider string, until time.Time, first time.Duration) (store.ProviderRun, error)
	FinishProviderReconciliation(ctx context.Context, runID int64, drift int, report any) error
	RecordedEvents(ctx context.Context, ids []string) (map[string]bool, error)
	RecordPaymentEvent(ctx context.Context, ev kudos.PaymentEvent, delivery func(kudos.PaymentEvent) store.OutboxEntry) (bool, error)
	SeeProviderItems(ctx context.Context, runID int64, kind string, refs []string) error
	PaymentAmounts(ctx context.Context, refs []string) (map[string]int64, error)
	RefundAmounts(ctx context.Context, providerIDs []string) (map[string]int64, error)
	UnseenPayments(ctx context.Context, runID int64, since, until, afterAt time.Time, afterRef string, limit int) ([]store.LedgerEntry, error)
	UnseenRefunds(ctx context.Context, runID int64, since, until, afterAt time.Time, afterRef string, limit int) ([]store.LedgerEntry, error)
	BookedDisputes(ctx context.Context, ids []string) (map[string]store.BookedDispute, error)
	UnseenDisputes(ctx context.Context, runID int64, since, until, afterAt time.Time, afterRef string, limit int) ([]store.LedgerEntry, error)
}

// Defaults of the provider reconciliation.
const (
	// ProviderSettle is how old the newest item compared is: an event
	// younger than that may still be on its way through the webhook, and
	// its payment not applied yet.
	ProviderSettle = UnappliedAge
	// ProviderOverlap is how far before the window the provider's events
	// are listed again (an event delivered late, around the cursor).
	ProviderOverlap = 24 * time.Hour
	// ProviderPaymentOverlap is how far before the window the provider's
	// payments and refunds are listed (by the time the provider created
	// them): a payment made before the window that Kudos booked in it (a
	// checkout opened yesterday, a SEPA debit settling for up to
	// ProviderSlowestDebit) is found, not reported unknown.
	ProviderPaymentOverlap = ProviderSlowestDebit + 24*time.Hour
	// ProviderSlowestDebit is how long a SEPA Direct Debit may take to
	// settle: Stripe says up to 14 business days, three weeks of calendar
	// days with holidays, longer than kudos.DefaultPendingLimit (after
	// which Kudos tries to cancel it, and waits for one it cannot).
	ProviderSlowestDebit = 21 * 24 * time.Hour
	// ProviderDisputeOverlap is how far before the window the provider's
	// disputes are listed: a dispute is decided up to months after it
	// opened (the card networks allow 75 days and more, an arbitration
	// longer), so its status is compared as long as it may move, whatever
	// became of its events (Stripe's list of events keeps 30 days).
	ProviderDisputeOverlap = 120 * 24 * time.Hour
	// ProviderFirstWindow is how far back a provider's first run reads.
	ProviderFirstWindow = 48 * time.Hour
	// providerPage is how many items are compared with Postgres at once.
	providerPage = 100
)

// PaymentOverlapFor is ProviderPaymentOverlap for a deployment whose
// settling payments are given up on after pendingLimit: the longer of the
// two, and a day.
func PaymentOverlapFor(pendingLimit time.Duration) time.Duration {
	return max(pendingLimit, ProviderSlowestDebit) + 24*time.Hour
}

// ProviderReconciler compares Kudos's ledger with the payment provider's
// own lists (issue 36 item 4). It repairs what it can: an event the
// provider emitted and the webhook never delivered is recorded and
// applied through the webhook's own intake (RecordPaymentEvent with the
// PaymentEvent delivery, after the provider's ReadEvent, the webhook's
// reading), whatever its type, and so is a dispute the provider's list of
// disputes shows that Kudos has not booked as it stands (its event lost,
// or gone from the provider's list of events); and it reports what it
// cannot (a payment, refund or dispute one side has and the other has
// not, or at another amount or status), in the report, the
// kudos_ledger_drift gauge and `kudos ops reconcile-provider`.
type ProviderReconciler struct {
	Provider kudos.ProviderLedger
	// Name is the provider's name (its runs' cursor is its own).
	Name string
	DB   ProviderLedgerStore
	Log  *slog.Logger
	// Kick, when set, has the relay deliver the repaired events at once.
	Kick func()
	// Now is the clock (nil: time.Now); Settle, Overlap, PaymentOverlap,
	// DisputeOverlap and First are the durations above (zero: their
	// defaults; tests set Settle negative for none).
	Now                                                    func() time.Time
	Settle, Overlap, PaymentOverlap, DisputeOverlap, First time.Duration
}

// orDefault is d, or def when d is zero (a negative d means none).
func orDefault(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// Reconcile runs one reconciliation over the provider's lists since the
// last finished run (resuming, over the same window, one that did not
// finish), holding the provider's lock so that two never overlap.
// progress, when set, is called after each page (the activity heartbeats).
func (r *ProviderReconciler) Reconcile(ctx context.Context, progress func(what string, n int)) (workflows.ProviderReconcileReport, error) {
	var rep workflows.ProviderReconcileReport
	if progress == nil {
		progress = func(string, int) {}
	}
	err := r.DB.WithProviderLock(ctx, r.Name, func() error {
		now := time.Now
		if r.Now != nil {
			now = r.Now
		}
		run, err := r.DB.BeginProviderReconciliation(ctx, r.Name, now().Add(-orDefault(r.Settle, ProviderSettle)).UTC(),
			orDefault(r.First, ProviderFirstWindow))
		if err != nil {
			return err
		}
		rep = workflows.ProviderReconcileReport{Provider: r.Name, Since: run.Since, Until: run.Until}
		if err := r.events(ctx, run.Since.Add(-orDefault(r.Overlap, ProviderOverlap)), run.Until, &rep, progress); err != nil {
			return err
		}
		from := run.Since.Add(-orDefault(r.PaymentOverlap, ProviderPaymentOverlap))
		if err := r.payments(ctx, run, from, &rep, progress); err != nil {
			return err
		}
		if err := r.refunds(ctx, run, from, &rep, progress); err != nil {
			return err
		}
		if err := r.disputes(ctx, run, run.Since.Add(-orDefault(r.DisputeOverlap, ProviderDisputeOverlap)), now().UTC(), &rep, progress); err != nil {
			return err
		}
		if err := r.DB.FinishProviderReconciliation(ctx, run.ID, rep.Drift, rep); err != nil {
			return err
		}
		if rep.Drift > 0 {
			r.Log.Warn("provider reconciliation: the ledgers differ", "provider", r.Name, "drift", rep.Drift, "since", rep.Since, "until", rep.Until)
		}
		return nil
	})
	return rep, err
}

// differ records a difference in rep.
func differ(rep *workflows.ProviderReconcileReport, d workflows.LedgerDifference) {
	rep.Drift++
	if len(rep.Differences) < workflows.MaxReportedDifferences {
		rep.Differences = append(rep.Differences, d)
	}
}

// compareAmount records d, one of the provider's payments or refunds
// (kind), as a difference when Kudos knows nothing of it (ok false:
// kind_missing) or booked another amount (kind_amount; a negative booked
// is known, its amount not booked yet).
func compareAmount(rep *workflows.ProviderReconcileReport, kind string, booked int64, ok bool, d workflows.LedgerDifference) {
	switch {
	case !ok:
		d.Kind = kind + "_missing"
		differ(rep, d)
	case booked >= 0 && booked != d.Amount:
		d.Kind, d.Kudos = kind+"_amount", booked
		differ(rep, d)
	}
}

// paged calls flush with the items fn is given, providerPage at a time.
func paged[T any](list func(fn func(T) error) error, flush func([]T) error) error {
	page := make([]T, 0, providerPage)
	err := list(func(item T) error {
		if page = append(page, item); len(page) == providerPage {
			err := flush(page)
			page = page[:0]
			return err
		}
		return nil
	})
	if err != nil || len(page) == 0 {
		return err
	}
	return flush(page)
}

// events records, through the webhook's intake, every event of the
// provider's list the intake never stored, oldest first: the outbox hands
// an account's events to its workflow in the order they are recorded, and
// a provider lists them newest first (Stripe), which would put a payment's
// dispute or returned debit before the payment. Only the missing events
// are held until the list ends (few: those the webhook lost).
func (r *ProviderReconciler) events(ctx context.Context, since, until time.Time, rep *workflows.ProviderReconcileReport,
	progress func(string, int)) error {
	list := func(fn func(kudos.ProviderEvent) error) error { return r.Provider.ListEvents(ctx, since, until, fn) }
	var missing []kudos.ProviderEvent
	err := paged(list, func(page []kudos.ProviderEvent) error {
		ids := make([]string, len(page))
		for i, ev := range page {
			ids[i] = ev.ID
		}
		recorded, err := r.DB.RecordedEvents(ctx, ids)
		if err != nil {
			return err
		}
		for _, ev := range page {
			rep.Events++
			if !recorded[ev.ID] {
				missing = append(missing, ev)
			}
		}
		progress("events", rep.Events)
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortStableFunc(missing, func(a, b kudos.ProviderEvent) int { return a.Created.Compare(b.Created) })
	repaired := false
	for _, ev := range missing {
		pe, err := r.Provider.ReadEvent(ctx, ev)
		if code := kudos.ErrorCode(err); code == kudos.EBadRequest || code == kudos.EInvalid {
			differ(rep, workflows.LedgerDifference{Kind: "event_unreadable", Reference: ev.ID, At: ev.Created})
			continue
		} else if err != nil {
			return fmt.Errorf("provider reconciliation: read event %s: %w", ev.ID, err)
		}
		if pe == nil {
			continue // of no interest to Kudos, as the webhook acknowledges it
		}
		isNew, err := r.DB.RecordPaymentEvent(ctx, *pe, PaymentEvent)
		if err != nil {
			return err
		}
		if isNew {
			repaired = true
			rep.Repaired = append(rep.Repaired, pe.EventID)
			r.Log.Warn("provider reconciliation: an event was never delivered, recorded now", "provider", r.Name,
				"event", pe.EventID, "type", ev.Type, "account", pe.AccountID)
		}
	}
	if repaired && r.Kick != nil {
		r.Kick()
	}
	return nil
}

// payments compares the provider's payments with Kudos's: each one paid at
// the provider must be known to Kudos (booked, or its event recorded), at
// the amount Kudos booked; each one Kudos booked in the window must have
// been listed.
func (r *ProviderReconciler) payments(ctx context.Context, run store.ProviderRun, since time.Time, rep *workflows.ProviderReconcileReport,
	progress func(string, int)) error {
	list := func(fn func(kudos.ProviderPayment) error) error {
		return r.Provider.ListPayments(ctx, since, run.Until, fn)
	}
	err := paged(list, func(page []kudos.ProviderPayment) error {
		refs := make([]string, len(page))
		for i, p := range page {
			refs[i] = p.Reference
		}
		if err := r.DB.SeeProviderItems(ctx, run.ID, "payment", refs); err != nil {
			return err
		}
		booked, err := r.DB.PaymentAmounts(ctx, refs)
		if err != nil {
			return err
		}
		for _, p := range page {
			rep.Payments++
			amount, ok := booked[p.Reference]
			compareAmount(rep, "payment", amount, ok, workflows.LedgerDifference{AccountID: p.AccountID.String(), Reference: p.Reference,
				Amount: p.Amount.Amount, Currency: p.Amount.Currency, At: p.Created})
		}
		progress("payments", rep.Payments)
		return nil
	})
	if err != nil {
		return err
	}
	return unseen(ctx, run, rep, "payment_unknown", r.DB.UnseenPayments)
}

// refunds compares the provider's refunds with Kudos's as payments does.
func (r *ProviderReconciler) refunds(ctx context.Context, run store.ProviderRun, since time.Time, rep *workflows.ProviderReconcileReport,
	progress func(string, int)) error {
	list := func(fn func(kudos.ProviderRefund) error) error {
		return r.Provider.ListRefunds(ctx, since, run.Until, fn)
	}
	err := paged(list, func(page []kudos.ProviderRefund) error {
		ids := make([]string, len(page))
		for i, p := range page {
			ids[i] = p.ID
		}
		if err := r.DB.SeeProviderItems(ctx, run.ID, "refund", ids); err != nil {
			return err
		}
		recorded, err := r.DB.RefundAmounts(ctx, ids)
		if err != nil {
			return err
		}
		for _, p := range page {
			rep.Refunds++
			amount, ok := recorded[p.ID]
			compareAmount(rep, "refund", amount, ok, workflows.LedgerDifference{AccountID: p.AccountID.String(), Reference: p.ID,
				Amount: p.Amount.Amount, Currency: p.Amount.Currency, At: p.Created})
		}
		progress("refunds", rep.Refunds)
		return nil
	})
	if err != nil {
		return err
	}
	return unseen(ctx, run, rep, "refund_unknown", r.DB.UnseenRefunds)
}

// unseen reports, a page at a time, what Kudos booked in the run's window
// and the provider's list did not show.
func unseen(ctx context.Context, run store.ProviderRun, rep *workflows.ProviderReconcileReport, kind string,
	read func(ctx context.Context, runID int64, since, until, afterAt time.Time, afterRef string, limit int) ([]store.LedgerEntry, error)) error {
	afterAt, afterRef := run.Since.Add(-time.Microsecond), ""
	for {
		page, err := read(ctx, run.ID, run.Since, run.Until, afterAt, afterRef, providerPage)
		if err != nil {
			return err
		}
		for _, e := range page {
			differ(rep, workflows.LedgerDifference{Kind: kind, AccountID: e.AccountID.String(), Reference: e.Reference,
				Amount: e.Amount, Currency: e.Currency, At: e.At})
			afterAt, afterRef = e.At, e.Reference
		}
		if len(page) < providerPage {
			return nil
		}
	}
}
