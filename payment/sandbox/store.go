package sandbox

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
	"kudos/dispatch"
	"kudos/store"
)

// Checkout is a hosted checkout of the sandbox (a sandbox_checkouts row).
type Checkout struct {
	ID, CheckoutID        string
	AccountID             uuid.UUID
	Purpose               kudos.CheckoutPurpose
	Description           string
	Amount                kudos.Money
	Status                string
	SuccessURL, CancelURL string
	ExpiresAt, CreatedAt  time.Time
}

// querier is what a pool and a transaction have in common.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

const checkoutColumns = `id, checkout_id, account_id, purpose, description, amount, currency, status, success_url,
	cancel_url, expires_at, created_at`

// createCheckout stores a checkout; idempotent by CheckoutID.
func (p *Provider) createCheckout(ctx context.Context, c Checkout) (*Checkout, error) {
	_, err := p.DB.Pool.Exec(ctx, `INSERT INTO sandbox_checkouts (id, checkout_id, account_id, purpose, description, amount, currency,
		success_url, cancel_url, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (checkout_id) DO NOTHING`,
		c.ID, c.CheckoutID, c.AccountID, c.Purpose, c.Description, c.Amount.Amount, c.Amount.Currency, c.SuccessURL, c.CancelURL, c.ExpiresAt)
	if err != nil {
		return nil, store.Classify(err)
	}
	return checkoutWhere(ctx, p.DB.Pool, "checkout_id", c.CheckoutID)
}

// CheckoutByID returns a checkout by its (provider) id.
func (p *Provider) CheckoutByID(ctx context.Context, id string) (*Checkout, error) {
	return checkoutWhere(ctx, p.DB.Pool, "id", id)
}

func checkoutWhere(ctx context.Context, q querier, column, value string) (*Checkout, error) {
	var c Checkout
	err := q.QueryRow(ctx, `SELECT `+checkoutColumns+` FROM sandbox_checkouts WHERE `+column+` = $1`, value).Scan(
		&c.ID, &c.CheckoutID, &c.AccountID, &c.Purpose, &c.Description, &c.Amount.Amount, &c.Amount.Currency,
		&c.Status, &c.SuccessURL, &c.CancelURL, &c.ExpiresAt, &c.CreatedAt)
	return &c, store.Classify(err)
}

// expireCheckout closes an open checkout and says how the checkout ended.
func (p *Provider) expireCheckout(ctx context.Context, id string) (kudos.PaymentOutcome, error) {
	var status string
	err := p.DB.InTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE sandbox_checkouts SET status = 'expired' WHERE id = $1 AND status = 'open'`, id); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT status FROM sandbox_checkouts WHERE id = $1`, id).Scan(&status)
	})
	if err != nil {
		return "", err
	}
	switch status {
	case "paid":
		return kudos.PaymentPaid, nil
	case "failed":
		return kudos.PaymentFailed, nil
	case "cancelled":
		return kudos.PaymentCancelled, nil
	}
	return kudos.PaymentExpired, nil
}

// refund gives a checkout's payment back, once per refund id.
func (p *Provider) refund(ctx context.Context, req kudos.RefundRequest) (string, error) {
	_, err := p.DB.Pool.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid, refunded)
		VALUES ($1, $2, $3, $4, true, true) ON CONFLICT (charge_id) DO UPDATE SET refunded = true`,
		"checkout:"+req.ProviderID, req.AccountID, req.Amount.Amount, req.Amount.Currency)
	return "re_sandbox_" + req.RefundID, store.Classify(err)
}

// settle ends an open checkout with outcome (the Pay, Fail and Cancel
// buttons): card is the card paid with (declined-at-checkout cards fail),
// saved on payment. The payment event and its delivery are recorded in the
// same transaction. A checkout that is not open (settled, expired, past its
// time) is EConflict.
func (p *Provider) settle(ctx context.Context, id string, outcome kudos.PaymentOutcome, card TestCard) (*Checkout, kudos.PaymentOutcome, error) {
	if outcome == kudos.PaymentPaid && card.DeclinedAtCheckout {
		outcome = kudos.PaymentFailed
	}
	status := map[kudos.PaymentOutcome]string{kudos.PaymentPaid: "paid", kudos.PaymentFailed: "failed", kudos.PaymentCancelled: "cancelled"}[outcome]
	var c *Checkout
	err := p.DB.InTx(ctx, func(tx pgx.Tx) error {
		now := p.DB.Now()
		tag, err := tx.Exec(ctx, `UPDATE sandbox_checkouts SET status = $2 WHERE id = $1 AND status = 'open' AND expires_at > $3`, id, status, now)
		if err != nil {
			return err
		}
		if c, err = checkoutWhere(ctx, tx, "id", id); err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return kudos.Errorf(kudos.EConflict, "this checkout is no longer open")
		}
		if outcome == kudos.PaymentPaid {
			if err := saveCard(ctx, tx, c.AccountID, card, now, c.Purpose == kudos.CheckoutPaymentMethod); err != nil {
				return err
			}
		}
		_, err = store.RecordPaymentEventTx(ctx, tx, kudos.PaymentEvent{EventID: "sandbox_" + uuid.NewString(), Provider: "sandbox",
			CheckoutID: c.CheckoutID, AccountID: c.AccountID, Outcome: outcome, OccurredAt: now}, dispatch.PaymentEvent)
		return err
	})
	return c, outcome, err
}

// saveCard saves the card paid with and makes it the default, as a hosted
// checkout does with the card a subscription is paid by. Adding a payment
// method always saves a new one; paying with a card the account already
// has saves nothing new.
func saveCard(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, card TestCard, now time.Time, always bool) error {
	var id string
	err := tx.QueryRow(ctx, `SELECT id FROM sandbox_payment_methods WHERE account_id = $1 AND last4 = $2 ORDER BY created_at DESC LIMIT 1`,
		accountID, card.Last4).Scan(&id)
	if always || errors.Is(err, pgx.ErrNoRows) {
		id = "pm_sandbox_" + uuid.NewString()[:8]
		if _, err := tx.Exec(ctx, `INSERT INTO sandbox_payment_methods (id, account_id, brand, last4, exp_month, exp_year, off_session)
			VALUES ($1, $2, 'visa', $3, 12, $4, $5)`, id, accountID, card.Last4, now.Year()+3, card.OffSession); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE sandbox_payment_methods SET is_default = (id = $2) WHERE account_id = $1`, accountID, id)
	return err
}

// paymentMethods lists the account's saved cards, default first.
func (p *Provider) paymentMethods(ctx context.Context, accountID uuid.UUID) ([]kudos.PaymentMethod, error) {
	rows, err := p.DB.Pool.Query(ctx, `SELECT id, brand, last4, exp_month, exp_year, is_default FROM sandbox_payment_methods
		WHERE account_id = $1 ORDER BY is_default DESC, created_at`, accountID)
	if err != nil {
		return nil, store.Classify(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (kudos.PaymentMethod, error) {
		pm := kudos.PaymentMethod{Method: "card"}
		err := row.Scan(&pm.ID, &pm.Brand, &pm.CardNumber, &pm.CardExpiryMonth, &pm.CardExpiryYear, &pm.Default)
		return pm, err
	})
	if out == nil {
		out = []kudos.PaymentMethod{}
	}
	return out, store.Classify(err)
}

// deletePaymentMethod removes one of the account's cards (another account's
// is ENotFound); if it was the default, the oldest left becomes it.
func (p *Provider) deletePaymentMethod(ctx context.Context, accountID uuid.UUID, id string) error {
	return p.DB.InTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM sandbox_payment_methods WHERE id = $1 AND account_id = $2`, id, accountID)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return kudos.NotFound()
		}
		_, err = tx.Exec(ctx, `UPDATE sandbox_payment_methods SET is_default = true WHERE id = (SELECT id FROM sandbox_payment_methods
			WHERE account_id = $1 ORDER BY created_at LIMIT 1) AND NOT EXISTS (SELECT 1 FROM sandbox_payment_methods WHERE account_id = $1 AND is_default)`, accountID)
		return err
	})
}

// charge charges the account's default card once per charge id: a repeated
// id returns the first outcome. It fails when the account has no card, is
// marked to decline, or its card declines or needs authentication
// off-session.
func (p *Provider) charge(ctx context.Context, chargeID string, accountID uuid.UUID, amount kudos.Money) (kudos.ChargeResult, error) {
	res := kudos.ChargeResult{ProviderID: "ch_sandbox_" + chargeID}
	err := p.DB.InTx(ctx, func(tx pgx.Tx) error {
		var reason *string
		err := tx.QueryRow(ctx, `SELECT paid, failure_reason FROM sandbox_charges WHERE charge_id = $1`, chargeID).Scan(&res.Paid, &reason)
		if err == nil {
			switch {
			case reason != nil:
				res.FailureReason = *reason
			case !res.Paid: // recorded before reasons were
				res.FailureReason = "card_declined"
			}
			return nil
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var offSession *string
		var declines bool
		if err := tx.QueryRow(ctx, `SELECT (SELECT off_session FROM sandbox_payment_methods WHERE account_id = $1 AND is_default),
			EXISTS (SELECT 1 FROM sandbox_declines WHERE account_id = $1)`, accountID).Scan(&offSession, &declines); err != nil {
			return err
		}
		switch {
		case offSession == nil:
			res.FailureReason = "no_payment_method"
		case declines || OffSession(*offSession) == OffSessionDecline:
			res.FailureReason = "card_declined"
		case OffSession(*offSession) == OffSessionAuthenticate:
			res.FailureReason = "authentication_required"
		default:
			res.Paid = true
		}
		var failure *string
		if res.FailureReason != "" {
			failure = &res.FailureReason
		}
		_, err = tx.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid, failure_reason)
			VALUES ($1, $2, $3, $4, $5, $6)`, chargeID, accountID, amount.Amount, amount.Currency, res.Paid, failure)
		return err
	})
	return res, err
}

// SetDeclines makes the sandbox decline (or again accept) the account's
// off-session charges, whatever its card (fault tests, demos).
func (p *Provider) SetDeclines(ctx context.Context, accountID uuid.UUID, decline bool) error {
	var err error
	if decline {
		_, err = p.DB.Pool.Exec(ctx, `INSERT INTO sandbox_declines (account_id) VALUES ($1) ON CONFLICT DO NOTHING`, accountID)
	} else {
		_, err = p.DB.Pool.Exec(ctx, `DELETE FROM sandbox_declines WHERE account_id = $1`, accountID)
	}
	return store.Classify(err)
}

// verify charges the verification amount to the card a payment-method
// checkout saved, and refunds it in a separate refund (once per id).
func (p *Provider) verify(ctx context.Context, req kudos.VerificationRequest) error {
	return p.DB.InTx(ctx, func(tx pgx.Tx) error {
		chargeID := "verify:" + req.VerificationID
		if _, err := tx.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid)
			VALUES ($1, $2, $3, $4, true) ON CONFLICT DO NOTHING`, chargeID, req.AccountID, req.Amount.Amount, req.Amount.Currency); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO sandbox_refunds (id, charge_id, amount, currency) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING`, "verify-refund:"+req.VerificationID, chargeID, req.Amount.Amount, req.Amount.Currency); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE sandbox_charges SET refunded = true WHERE charge_id = $1`, chargeID)
		return err
	})
}
