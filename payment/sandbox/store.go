package sandbox

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
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

// createCheckout stores a checkout; idempotent by CheckoutID: the same
// checkout asked again gets the stored one. Asked for another amount or
// currency (the invoice priced again between two attempts) it is an
// EConflict error, and the stored checkout, whose page never reached the
// customer, is expired, as the Stripe adapter's sameSession does.
func (p *Provider) createCheckout(ctx context.Context, c Checkout) (*Checkout, error) {
	_, err := p.DB.Pool.Exec(ctx, `INSERT INTO sandbox_checkouts (id, checkout_id, account_id, purpose, description, amount, currency,
		success_url, cancel_url, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (checkout_id) DO NOTHING`,
		c.ID, c.CheckoutID, c.AccountID, c.Purpose, c.Description, c.Amount.Amount, c.Amount.Currency, c.SuccessURL, c.CancelURL, c.ExpiresAt)
	if err != nil {
		return nil, store.Classify(err)
	}
	was, err := checkoutWhere(ctx, p.DB.Pool, "checkout_id", c.CheckoutID)
	if err != nil || (was.Amount.Amount == c.Amount.Amount && strings.EqualFold(was.Amount.Currency, c.Amount.Currency) && was.Purpose == c.Purpose) {
		return was, err
	}
	if _, err := p.expireCheckout(ctx, was.ID); err != nil {
		return nil, err
	}
	return nil, kudos.Errorf(kudos.EConflict, "checkout %s: the checkout under this id (%s) is a %s of %d %s, not a %s of %d %s", c.CheckoutID, was.ID,
		was.Purpose, was.Amount.Amount, was.Amount.Currency, c.Purpose, c.Amount.Amount, c.Amount.Currency)
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
	case "pending":
		return kudos.PaymentPending, nil
	}
	return kudos.PaymentExpired, nil
}

// refund gives a checkout's payment back, once per refund id, unless the
// account's refunds are set to be refused (SetRefundRefusal): for now
// (EUnavailable) or for good (EInvalid).
func (p *Provider) refund(ctx context.Context, req kudos.RefundRequest) (string, error) {
	var kind string
	err := p.DB.Pool.QueryRow(ctx, `SELECT kind FROM sandbox_refund_refusals WHERE account_id = $1`, req.AccountID).Scan(&kind)
	switch {
	case err == nil && kind == "temporary":
		return "", kudos.Errorf(kudos.EUnavailable, "the sandbox refused the refund for now (balance_insufficient)")
	case err == nil:
		return "", kudos.Errorf(kudos.EInvalid, "the sandbox refused the refund (charge_disputed)")
	case !errors.Is(err, pgx.ErrNoRows):
		return "", store.Classify(err)
	}
	charge := "checkout:" + req.ProviderID
	if req.ProviderID == "" { // an off-session charge's payment (ops refunds, issue 36)
		charge = req.ChargeID
	}
	id := "re_sandbox_" + req.RefundID
	err = p.DB.InTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid, refunded)
			VALUES ($1, $2, $3, $4, true, true) ON CONFLICT (charge_id) DO UPDATE SET refunded = true`,
			charge, req.AccountID, req.Amount.Amount, req.Amount.Currency); err != nil {
			return err
		}
		// Listed by ListRefunds, as Stripe's refunds are.
		_, err := tx.Exec(ctx, `INSERT INTO sandbox_refunds (id, charge_id, amount, currency, created_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (id) DO NOTHING`, id, charge, req.Amount.Amount, req.Amount.Currency, p.DB.Now())
		return err
	})
	return id, store.Classify(err)
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
	var settlesAs *string
	if outcome == kudos.PaymentPaid && card.SEPA { // a debit: settled later
		outcome, settlesAs = kudos.PaymentPending, &card.SettlesAs
	}
	status := map[kudos.PaymentOutcome]string{kudos.PaymentPaid: "paid", kudos.PaymentFailed: "failed", kudos.PaymentCancelled: "cancelled",
		kudos.PaymentPending: "pending"}[outcome]
	var c *Checkout
	err := p.DB.InTx(ctx, func(tx pgx.Tx) error {
		now := p.DB.Now()
		tag, err := tx.Exec(ctx, `UPDATE sandbox_checkouts SET status = $2, settles_as = $4 WHERE id = $1 AND status = 'open' AND expires_at > $3`,
			id, status, now, settlesAs)
		if err != nil {
			return err
		}
		if c, err = checkoutWhere(ctx, tx, "id", id); err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return kudos.Errorf(kudos.EConflict, "this checkout is no longer open")
		}
		if outcome == kudos.PaymentPaid || outcome == kudos.PaymentPending { // a mandate is saved when the debit is made
			if err := saveCard(ctx, tx, c.AccountID, card, now, c.Purpose == kudos.CheckoutPaymentMethod); err != nil {
				return err
			}
		}
		return p.recordEvent(ctx, tx, c, outcome, now)
	})
	return c, outcome, err
}

// recordEvent emits the payment event of checkout c (in tx, with the
// change that caused it).
func (p *Provider) recordEvent(ctx context.Context, tx pgx.Tx, c *Checkout, outcome kudos.PaymentOutcome, now time.Time) error {
	return p.emit(ctx, tx, checkoutEventType(outcome), kudos.PaymentEvent{EventID: "sandbox_" + uuid.NewString(), Provider: "sandbox",
		CheckoutID: c.CheckoutID, AccountID: c.AccountID, Outcome: outcome, OccurredAt: now})
}

// settlePending settles a pending checkout as its IBAN says (paid or
// failed) and, with notify, records the payment event that tells the
// workflow; without it the event is lost on the way, as a webhook can be,
// and only asking the provider finds the outcome. A checkout that is not
// pending is EConflict.
func (p *Provider) settlePending(ctx context.Context, id string, notify bool) (*Checkout, kudos.PaymentOutcome, error) {
	var c *Checkout
	var outcome kudos.PaymentOutcome
	err := p.DB.InTx(ctx, func(tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, `UPDATE sandbox_checkouts SET status = settles_as, settles_as = NULL WHERE id = $1 AND status = 'pending'
			RETURNING status`, id).Scan(&status)
		if errors.Is(err, pgx.ErrNoRows) {
			return kudos.Errorf(kudos.EConflict, "this checkout has no payment settling")
		} else if err != nil {
			return err
		}
		if c, err = checkoutWhere(ctx, tx, "id", id); err != nil {
			return err
		}
		outcome = kudos.PaymentOutcome(status)
		if !notify {
			return nil
		}
		return p.recordEvent(ctx, tx, c, outcome, p.DB.Now())
	})
	return c, outcome, err
}

// Settle settles everything of the account that is settling: its
// processing off-session charges, and (see settlePending) its pending
// checkouts. It returns how many it settled.
//
// With notify, each settled charge's event is recorded too, as Stripe
// sends payment_intent.succeeded or payment_intent.payment_failed (issue
// 36): the workflow applies the renewal at once instead of at its next
// follow-up.
//
// With authenticate, the charges waiting on the customer's authentication
// (a card whose off-session charges need it) are completed too, as when
// the customer authenticates on the provider's page: paid, with their
// payment_intent.succeeded. A charge cancelled meanwhile (the account's
// erasure cancels them) is not.
func (p *Provider) Settle(ctx context.Context, accountID uuid.UUID, notify, authenticate bool) (int, error) {
	var n int
	err := p.DB.InTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE sandbox_charges SET paid = (settles_as = 'paid' OR $2),
			failure_reason = CASE WHEN settles_as = 'failed' THEN 'insufficient_funds' END, settles_as = NULL
			WHERE account_id = $1 AND (settles_as IS NOT NULL OR ($2 AND NOT paid AND failure_reason = 'authentication_required'))
			RETURNING charge_id, paid, amount, currency`, accountID, authenticate)
		if err != nil {
			return err
		}
		type settled struct {
			chargeID string
			paid     bool
			amount   kudos.Money
		}
		charges, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (settled, error) {
			var s settled
			return s, r.Scan(&s.chargeID, &s.paid, &s.amount.Amount, &s.amount.Currency)
		})
		if err != nil {
			return err
		}
		n = len(charges)
		for _, c := range charges {
			if !notify {
				continue
			}
			outcome := kudos.PaymentPaid
			if !c.paid {
				outcome = kudos.PaymentFailed
			}
			typ := "payment_intent.succeeded"
			if !c.paid {
				typ = "payment_intent.payment_failed"
			}
			if err := p.emit(ctx, tx, typ, kudos.PaymentEvent{EventID: "sandbox_" + uuid.NewString(), Provider: "sandbox",
				AccountID: accountID, Outcome: outcome, OccurredAt: p.DB.Now(), LedgerMovement: kudos.LedgerMovement{
					Movement: kudos.MovementCharge, ChargeID: c.chargeID, PaymentID: "ch_sandbox_" + c.chargeID, Amount: &c.amount}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, store.Classify(err)
	}
	rows, err := p.DB.Pool.Query(ctx, `SELECT id FROM sandbox_checkouts WHERE account_id = $1 AND status = 'pending' ORDER BY created_at`, accountID)
	if err != nil {
		return n, store.Classify(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return n, store.Classify(err)
	}
	for _, id := range ids {
		if _, _, err := p.settlePending(ctx, id, notify); err != nil && kudos.ErrorCode(err) != kudos.EConflict {
			return n, err
		}
		n++
	}
	return n, nil
}

// SetRefundRefusal makes the sandbox refuse the account's refunds for now
// ("temporary"), for good ("permanent"), or accept them again ("").
func (p *Provider) SetRefundRefusal(ctx context.Context, accountID uuid.UUID, kind string) error {
	var err error
	switch kind {
	case "":
		_, err = p.DB.Pool.Exec(ctx, `DELETE FROM sandbox_refund_refusals WHERE account_id = $1`, accountID)
	case "temporary", "permanent":
		_, err = p.DB.Pool.Exec(ctx, `INSERT INTO sandbox_refund_refusals (account_id, kind) VALUES ($1, $2)
			ON CONFLICT (account_id) DO UPDATE SET kind = $2`, accountID, kind)
	default:
		return kudos.FieldErrors{"refuse": kudos.FInvalidValue}.Err()
	}
	return store.Classify(err)
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
		method, brand := "card", "visa"
		if card.SEPA {
			method, brand = "directdebit", "sepa_debit"
		}
		if _, err := tx.Exec(ctx, `INSERT INTO sandbox_payment_methods (id, account_id, brand, last4, exp_month, exp_year, off_session, method)
			VALUES ($1, $2, $6, $3, 12, $4, $5, $7)`, id, accountID, card.Last4, now.Year()+3, card.OffSession, brand, method); err != nil {
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
	rows, err := p.DB.Pool.Query(ctx, `SELECT id, method, brand, last4, exp_month, exp_year, is_default FROM sandbox_payment_methods
		WHERE account_id = $1 ORDER BY is_default DESC, created_at`, accountID)
	if err != nil {
		return nil, store.Classify(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (kudos.PaymentMethod, error) {
		var pm kudos.PaymentMethod
		var last4 string
		err := row.Scan(&pm.ID, &pm.Method, &pm.Brand, &last4, &pm.CardExpiryMonth, &pm.CardExpiryYear, &pm.Default)
		if pm.Method == "directdebit" { // a mandate: an account number, no expiry
			pm.Brand, pm.ConsumerAccount, pm.CardExpiryMonth, pm.CardExpiryYear = "", "****"+last4, 0, 0
		} else {
			pm.CardNumber = last4
		}
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
// id returns the first outcome, or, asked for another amount or currency,
// is an EConflict error (as the Stripe adapter's sameCharge: that charge
// pays something else). It fails when the account has no card, is marked
// to decline, or its card declines or needs authentication off-session.
func (p *Provider) charge(ctx context.Context, chargeID string, accountID uuid.UUID, amount kudos.Money) (kudos.ChargeResult, error) {
	res := kudos.ChargeResult{ProviderID: "ch_sandbox_" + chargeID}
	err := p.DB.InTx(ctx, func(tx pgx.Tx) error {
		var reason, settlesAs *string
		var was kudos.Money
		err := tx.QueryRow(ctx, `SELECT paid, failure_reason, settles_as, amount, currency FROM sandbox_charges WHERE charge_id = $1`, chargeID).
			Scan(&res.Paid, &reason, &settlesAs, &was.Amount, &was.Currency)
		if err == nil {
			if was.Amount != amount.Amount || !strings.EqualFold(was.Currency, amount.Currency) {
				return kudos.Errorf(kudos.EConflict, "charge %s: the payment under this key is of %d %s, not %d %s", chargeID,
					was.Amount, was.Currency, amount.Amount, amount.Currency)
			}
			switch {
			case settlesAs != nil: // a debit still processing
				res.Pending = true
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
		case OffSession(*offSession) == OffSessionPendingSucceed:
			res.Pending, settlesAs = true, ptr("paid")
		case OffSession(*offSession) == OffSessionPendingFail:
			res.Pending, settlesAs = true, ptr("failed")
		default:
			res.Paid = true
		}
		var failure *string
		if res.FailureReason != "" {
			failure = &res.FailureReason
		}
		_, err = tx.Exec(ctx, `INSERT INTO sandbox_charges (charge_id, account_id, amount, currency, paid, failure_reason, settles_as)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, chargeID, accountID, amount.Amount, amount.Currency, res.Paid, failure, settlesAs)
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

// ptr is a pointer to v.
func ptr[T any](v T) *T { return &v }

// cancelCharge cancels charge chargeID while it is processing (the sandbox
// always lets it be), and tells how it stands.
func (p *Provider) cancelCharge(ctx context.Context, chargeID string) (kudos.ChargeResult, error) {
	res := kudos.ChargeResult{ProviderID: "ch_sandbox_" + chargeID}
	var reason *string
	err := p.DB.Pool.QueryRow(ctx, `UPDATE sandbox_charges SET failure_reason = CASE WHEN settles_as IS NOT NULL THEN 'canceled' ELSE failure_reason END,
		settles_as = NULL WHERE charge_id = $1 RETURNING paid, failure_reason`, chargeID).Scan(&res.Paid, &reason)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return kudos.ChargeResult{FailureReason: "not_charged"}, nil
	case err != nil:
		return res, store.Classify(err)
	case reason != nil:
		res.FailureReason = *reason
	case !res.Paid:
		res.FailureReason = "card_declined"
	}
	return res, nil
}
