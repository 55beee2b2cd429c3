package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// SandboxCheckout is a hosted checkout of the development payment sandbox.
type SandboxCheckout struct {
	ID, CheckoutID        string
	AccountID             uuid.UUID
	Purpose               kudos.CheckoutPurpose
	Description           string
	Amount                kudos.Money
	Status                string
	SuccessURL, CancelURL string
	ExpiresAt, CreatedAt  time.Time
}

// CreateSandboxCheckout stores a sandbox checkout; idempotent by CheckoutID.
func (db *DB) CreateSandboxCheckout(ctx context.Context, c SandboxCheckout) (*SandboxCheckout, error) {
	_, err := db.Pool.Exec(ctx, `INSERT INTO sandbox_checkouts (id, checkout_id, account_id, purpose, description, amount, currency,
		success_url, cancel_url, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (checkout_id) DO NOTHING`,
		c.ID, c.CheckoutID, c.AccountID, c.Purpose, c.Description, c.Amount.Amount, c.Amount.Currency, c.SuccessURL, c.CancelURL, c.ExpiresAt)
	if err != nil {
		return nil, wrapErr(err)
	}
	return db.sandboxCheckout(ctx, "checkout_id", c.CheckoutID)
}

// SandboxCheckoutByID returns a sandbox checkout by its (provider) id.
func (db *DB) SandboxCheckoutByID(ctx context.Context, id string) (*SandboxCheckout, error) {
	return db.sandboxCheckout(ctx, "id", id)
}

// querier is what a pool and a transaction have in common.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

const sandboxCheckoutColumns = `id, checkout_id, account_id, purpose, description, amount, currency, status, success_url,
	cancel_url, expires_at, created_at`

func scanSandboxCheckout(row pgx.Row) (*SandboxCheckout, error) {
	var c SandboxCheckout
	err := row.Scan(&c.ID, &c.CheckoutID, &c.AccountID, &c.Purpose, &c.Description, &c.Amount.Amount, &c.Amount.Currency,
		&c.Status, &c.SuccessURL, &c.CancelURL, &c.ExpiresAt, &c.CreatedAt)
	return &c, notFound(err)
}

func (db *DB) sandboxCheckout(ctx context.Context, column, value string) (*SandboxCheckout, error) {
	return sandboxCheckoutFrom(ctx, db.Pool, column, value)
}

func sandboxCheckoutFrom(ctx context.Context, q querier, column, value string) (*SandboxCheckout, error) {
	return scanSandboxCheckout(q.QueryRow(ctx, `SELECT `+sandboxCheckoutColumns+` FROM sandbox_checkouts WHERE `+column+` = $1`, value))
}

// ExpireSandboxCheckout closes an open sandbox checkout.
func (db *DB) ExpireSandboxCheckout(ctx context.Context, id string) error {
	_, err := db.Pool.Exec(ctx, `UPDATE sandbox_checkouts SET status = 'expired' WHERE id = $1 AND status = 'open'`, id)
	return wrapErr(err)
}

// CompleteSandboxCheckout settles an open sandbox checkout as paid or failed
// (the Pay and Fail buttons), saving the test card on payment, and records
// the payment event with its delivery in the same transaction. A checkout
// that is not open (settled, expired, past its time) is EConflict.
func (db *DB) CompleteSandboxCheckout(ctx context.Context, id string, outcome kudos.PaymentOutcome, delivery func(kudos.PaymentEvent) OutboxEntry) (*SandboxCheckout, error) {
	var c *SandboxCheckout
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		now := db.Now()
		status := "failed"
		if outcome == kudos.PaymentPaid {
			status = "paid"
		}
		tag, err := tx.Exec(ctx, `UPDATE sandbox_checkouts SET status = $2 WHERE id = $1 AND status = 'open' AND expires_at > $3`, id, status, now)
		if err != nil {
			return wrapErr(err)
		}
		if c, err = sandboxCheckoutFrom(ctx, tx, "id", id); err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return kudos.Errorf(kudos.EConflict, "this checkout is no longer open")
		}
		if outcome == kudos.PaymentPaid {
			if err := addSandboxCard(ctx, tx, c.AccountID, now, c.Purpose == kudos.CheckoutPaymentMethod); err != nil {
				return err
			}
			if c.Purpose == kudos.CheckoutPaymentMethod {
				// SPEC §9: the verification charge is refunded at once.
				if _, err := tx.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid, refunded)
					VALUES ($1, $2, $3, $4, true, true) ON CONFLICT DO NOTHING`, "verify:"+c.ID, c.AccountID, c.Amount.Amount, c.Amount.Currency); err != nil {
					return wrapErr(err)
				}
			}
		}
		_, err = recordPaymentEvent(ctx, tx, kudos.PaymentEvent{EventID: "sandbox_" + uuid.NewString(), Provider: "sandbox",
			CheckoutID: c.CheckoutID, AccountID: c.AccountID, Outcome: outcome, OccurredAt: now}, delivery)
		return err
	})
	return c, err
}

// addSandboxCard saves the test card (Visa ending 4242) used to pay: always
// when a payment method is being added, otherwise only if the account has
// none yet (paying again with the same card saves nothing new, as with a
// real provider). The first card is the default.
func addSandboxCard(ctx context.Context, tx pgx.Tx, accountID uuid.UUID, now time.Time, always bool) error {
	_, err := tx.Exec(ctx, `INSERT INTO sandbox_payment_methods (id, account_id, brand, last4, exp_month, exp_year, is_default)
		SELECT $1, $2, 'visa', '4242', 12, $3, NOT EXISTS (SELECT 1 FROM sandbox_payment_methods WHERE account_id = $2)
		WHERE $4 OR NOT EXISTS (SELECT 1 FROM sandbox_payment_methods WHERE account_id = $2)`,
		"pm_sandbox_"+uuid.NewString()[:8], accountID, now.Year()+3, always)
	return wrapErr(err)
}

// SandboxPaymentMethods lists the account's saved sandbox cards, default first.
func (db *DB) SandboxPaymentMethods(ctx context.Context, accountID uuid.UUID) ([]kudos.PaymentMethod, error) {
	rows, err := db.Pool.Query(ctx, `SELECT id, brand, last4, exp_month, exp_year, is_default FROM sandbox_payment_methods
		WHERE account_id = $1 ORDER BY is_default DESC, created_at`, accountID)
	if err != nil {
		return nil, wrapErr(err)
	}
	defer rows.Close()
	out := []kudos.PaymentMethod{}
	for rows.Next() {
		pm := kudos.PaymentMethod{Method: "card"}
		if err := rows.Scan(&pm.ID, &pm.Brand, &pm.CardNumber, &pm.CardExpiryMonth, &pm.CardExpiryYear, &pm.Default); err != nil {
			return nil, err
		}
		out = append(out, pm)
	}
	return out, wrapErr(rows.Err())
}

// DeleteSandboxPaymentMethod removes one of the account's cards (another
// account's is ENotFound); if it was the default, the oldest left becomes it.
func (db *DB) DeleteSandboxPaymentMethod(ctx context.Context, accountID uuid.UUID, id string) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM sandbox_payment_methods WHERE id = $1 AND account_id = $2`, id, accountID)
		if err != nil {
			return wrapErr(err)
		}
		if tag.RowsAffected() == 0 {
			return kudos.NotFound()
		}
		_, err = tx.Exec(ctx, `UPDATE sandbox_payment_methods SET is_default = true WHERE id = (SELECT id FROM sandbox_payment_methods
			WHERE account_id = $1 ORDER BY created_at LIMIT 1) AND NOT EXISTS (SELECT 1 FROM sandbox_payment_methods WHERE account_id = $1 AND is_default)`, accountID)
		return wrapErr(err)
	})
}

// SandboxCharge charges the account's default sandbox card once per charge
// id: a repeated id returns the first outcome. It declines when the account
// has no card or is marked to decline.
func (db *DB) SandboxCharge(ctx context.Context, chargeID string, accountID uuid.UUID, amount kudos.Money) (kudos.ChargeResult, error) {
	res := kudos.ChargeResult{ProviderID: "ch_sandbox_" + chargeID}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT paid FROM sandbox_charges WHERE charge_id = $1`, chargeID).Scan(&res.Paid)
		if err == nil {
			if !res.Paid {
				res.FailureReason = "card_declined"
			}
			return nil
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return wrapErr(err)
		}
		var hasCard, declines bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM sandbox_payment_methods WHERE account_id = $1),
			EXISTS (SELECT 1 FROM sandbox_declines WHERE account_id = $1)`, accountID).Scan(&hasCard, &declines); err != nil {
			return wrapErr(err)
		}
		res.Paid = hasCard && !declines
		switch {
		case !hasCard:
			res.FailureReason = "no_payment_method"
		case declines:
			res.FailureReason = "card_declined"
		}
		_, err = tx.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid) VALUES ($1, $2, $3, $4, $5)`,
			chargeID, accountID, amount.Amount, amount.Currency, res.Paid)
		return wrapErr(err)
	})
	return res, err
}

// SetSandboxDeclines makes the sandbox decline (or again accept) the
// account's off-session charges.
func (db *DB) SetSandboxDeclines(ctx context.Context, accountID uuid.UUID, decline bool) error {
	var err error
	if decline {
		_, err = db.Pool.Exec(ctx, `INSERT INTO sandbox_declines (account_id) VALUES ($1) ON CONFLICT DO NOTHING`, accountID)
	} else {
		_, err = db.Pool.Exec(ctx, `DELETE FROM sandbox_declines WHERE account_id = $1`, accountID)
	}
	return wrapErr(err)
}
