package sandbox

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
	"kudos/dispatch"
	"kudos/store"
)

// listPage is how many rows a listing reads at a time, as Stripe's list
// pages do (its limit is 100).
const listPage = 100

// checkoutEventType is the type of the event a checkout ending in outcome
// emits, named after Stripe's.
func checkoutEventType(outcome kudos.PaymentOutcome) string {
	switch outcome {
	case kudos.PaymentPaid:
		return "checkout.session.completed"
	case kudos.PaymentPending:
		return "checkout.session.completed.pending"
	case kudos.PaymentFailed:
		return "checkout.session.async_payment_failed"
	case kudos.PaymentExpired:
		return "checkout.session.expired"
	}
	return "checkout.session." + string(outcome)
}

// listPaged reads rows created in [since, until) after the key (created, id) of
// the last row read, a page at a time, until none is left; scan reads one
// row and returns its key.
func (p *Provider) listPaged(ctx context.Context, query string, since, until time.Time,
	scan func(pgx.CollectableRow) (time.Time, string, error)) error {
	afterAt, afterID := since.Add(-time.Microsecond), ""
	for {
		rows, err := p.DB.Pool.Query(ctx, query, since, until, afterAt, afterID, listPage)
		if err != nil {
			return store.Classify(err)
		}
		n := 0
		_, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
			at, id, err := scan(row)
			afterAt, afterID, n = at, id, n+1
			return struct{}{}, err
		})
		if err != nil {
			return store.Classify(err)
		}
		if n < listPage {
			return nil
		}
	}
}

// ListEvents implements kudos.ProviderLedger: the events the sandbox
// emitted (sandbox_events), delivered or lost.
func (p *Provider) ListEvents(ctx context.Context, since, until time.Time, fn func(kudos.ProviderEvent) error) error {
	return p.listPaged(ctx, `SELECT id, type, event, created_at FROM sandbox_events
		WHERE created_at >= $1 AND created_at < $2 AND (created_at, id) > ($3, $4) ORDER BY created_at, id LIMIT $5`, since, until,
		func(row pgx.CollectableRow) (time.Time, string, error) {
			var ev kudos.ProviderEvent
			var pe kudos.PaymentEvent
			if err := row.Scan(&ev.ID, &ev.Type, &pe, &ev.Created); err != nil {
				return ev.Created, ev.ID, err
			}
			ev.Created, ev.Raw = ev.Created.UTC(), pe
			return ev.Created, ev.ID, fn(ev)
		})
}

// ReadEvent implements kudos.ProviderLedger: the event as emit delivered
// it (or would have).
func (p *Provider) ReadEvent(_ context.Context, ev kudos.ProviderEvent) (*kudos.PaymentEvent, error) {
	pe, ok := ev.Raw.(kudos.PaymentEvent)
	if !ok {
		return nil, nil
	}
	return &pe, nil
}

// ListPayments implements kudos.ProviderLedger: the paid checkouts (a
// payment method's verification aside) and the paid off-session charges.
func (p *Provider) ListPayments(ctx context.Context, since, until time.Time, fn func(kudos.ProviderPayment) error) error {
	return p.listPaged(ctx, `SELECT * FROM (
			SELECT id, checkout_id AS reference, account_id, amount, currency, created_at FROM sandbox_checkouts
			WHERE status = 'paid' AND purpose <> 'payment_method'
			UNION ALL
			SELECT 'ch_sandbox_' || charge_id, charge_id, account_id, amount, currency, created_at FROM sandbox_charges
			WHERE paid AND charge_id NOT LIKE 'verify:%' AND charge_id NOT LIKE 'checkout:%') AS p
		WHERE created_at >= $1 AND created_at < $2 AND (created_at, id) > ($3, $4) ORDER BY created_at, id LIMIT $5`, since, until,
		func(row pgx.CollectableRow) (time.Time, string, error) {
			var pay kudos.ProviderPayment
			if err := row.Scan(&pay.ID, &pay.Reference, &pay.AccountID, &pay.Amount.Amount, &pay.Amount.Currency, &pay.Created); err != nil {
				return pay.Created, pay.ID, err
			}
			pay.Created = pay.Created.UTC()
			return pay.Created, pay.ID, fn(pay)
		})
}

// ListRefunds implements kudos.ProviderLedger: the refunds of payments (a
// verification charge's, given back at once, aside).
func (p *Provider) ListRefunds(ctx context.Context, since, until time.Time, fn func(kudos.ProviderRefund) error) error {
	return p.listPaged(ctx, `SELECT r.id, c.account_id, r.amount, r.currency, r.created_at FROM sandbox_refunds r
		JOIN sandbox_charges c ON c.charge_id = r.charge_id
		WHERE r.charge_id NOT LIKE 'verify:%' AND r.failed_at IS NULL AND r.created_at >= $1 AND r.created_at < $2 AND (r.created_at, r.id) > ($3, $4)
		ORDER BY r.created_at, r.id LIMIT $5`, since, until,
		func(row pgx.CollectableRow) (time.Time, string, error) {
			var r kudos.ProviderRefund
			var account uuid.UUID
			if err := row.Scan(&r.ID, &account, &r.Amount.Amount, &r.Amount.Currency, &r.Created); err != nil {
				return r.Created, r.ID, err
			}
			r.AccountID, r.Created = account, r.Created.UTC()
			return r.Created, r.ID, fn(r)
		})
}

// ListDisputes implements kudos.ProviderLedger: the disputes the sandbox
// played (sandbox_disputes), each as it stands now.
func (p *Provider) ListDisputes(ctx context.Context, since, until time.Time, fn func(kudos.ProviderDispute) error) error {
	return p.listPaged(ctx, `SELECT id, account_id, payment, amount, currency, status, reason, created_at FROM sandbox_disputes
		WHERE created_at >= $1 AND created_at < $2 AND (created_at, id) > ($3, $4) ORDER BY created_at, id LIMIT $5`, since, until,
		func(row pgx.CollectableRow) (time.Time, string, error) {
			var d kudos.ProviderDispute
			if err := row.Scan(&d.ID, &d.AccountID, &d.Payment, &d.Amount.Amount, &d.Amount.Currency, &d.Status, &d.Reason, &d.Created); err != nil {
				return d.Created, d.ID, err
			}
			d.Created = d.Created.UTC()
			return d.Created, d.ID, fn(d)
		})
}

// emit is how the sandbox emits an event, of any kind, as a provider does:
// kept in its own list of events (sandbox_events, what ListEvents reads
// and the provider reconciliation compares), and delivered to the intake
// with its delivery to the workflow (store.RecordPaymentEventTx, the
// webhook's intake), unless LoseEvents drops the delivery. In tx, with the
// change that caused it. Every event the sandbox emits goes through here.
func (p *Provider) emit(ctx context.Context, tx pgx.Tx, typ string, ev kudos.PaymentEvent) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO sandbox_events (id, type, account_id, event, created_at) VALUES ($1, $2, $3, $4, $5)`,
		ev.EventID, typ, ev.AccountID, body, ev.OccurredAt); err != nil {
		return err
	}
	if p.LoseEvents.Load() {
		return nil
	}
	_, err = store.RecordPaymentEventTx(ctx, tx, ev, dispatch.PaymentEvent)
	return err
}
