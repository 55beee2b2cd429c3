package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// promotionColumns are the columns of a kudos.Promotion, in the order
// scanPromotion reads them.
const promotionColumns = `code, COALESCE(percent_off, 0), COALESCE(amount_off, 0), COALESCE(currency, ''), duration, duration_years,
	max_redemptions, redeemed, expires_at, plans, active, created_at`

func scanPromotion(row pgx.Row) (*kudos.Promotion, error) {
	var p kudos.Promotion
	var plans []string
	err := row.Scan(&p.Code, &p.PercentOff, &p.AmountOff, &p.Currency, &p.Duration, &p.Years, &p.MaxRedemptions, &p.Redeemed,
		&p.ExpiresAt, &plans, &p.Active, &p.CreatedAt)
	for _, x := range plans {
		p.Plans = append(p.Plans, kudos.Plan(x))
	}
	return &p, err
}

// CreatePromotion stores a new promotion code (its Code normalized); a code
// that exists already is a conflict (codes are never reused: invoices name
// them).
func (db *DB) CreatePromotion(ctx context.Context, p kudos.Promotion) error {
	plans := make([]string, 0, len(p.Plans))
	for _, x := range p.Plans {
		plans = append(plans, string(x))
	}
	nullable := func(v int64) *int64 {
		if v == 0 {
			return nil
		}
		return &v
	}
	var currency *string
	if p.AmountOff > 0 {
		currency = &p.Currency
	}
	_, err := db.Pool.Exec(ctx, `INSERT INTO promotion_codes (code, percent_off, amount_off, currency, duration, duration_years,
		max_redemptions, expires_at, plans, active, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true, $10)`,
		kudos.NormalizePromotionCode(p.Code), nullable(int64(p.PercentOff)), nullable(p.AmountOff), currency, p.Duration, p.Years,
		p.MaxRedemptions, p.ExpiresAt, plans, db.Now())
	if isUniqueViolation(err) {
		return kudos.Errorf(kudos.EConflict, "promotion code %s exists already", kudos.NormalizePromotionCode(p.Code))
	}
	return wrapErr(err)
}

// Promotions lists every promotion code, newest first.
func (db *DB) Promotions(ctx context.Context) ([]kudos.Promotion, error) {
	rows, err := db.Pool.Query(ctx, `SELECT `+promotionColumns+` FROM promotion_codes ORDER BY created_at DESC, code`)
	if err != nil {
		return nil, wrapErr(err)
	}
	defer rows.Close()
	var out []kudos.Promotion
	for rows.Next() {
		p, err := scanPromotion(rows)
		if err != nil {
			return nil, wrapErr(err)
		}
		out = append(out, *p)
	}
	return out, wrapErr(rows.Err())
}

// Promotion returns the promotion code code (in any case); ENotFound when
// there is none.
func (db *DB) Promotion(ctx context.Context, code string) (*kudos.Promotion, error) {
	p, err := scanPromotion(db.Pool.QueryRow(ctx, `SELECT `+promotionColumns+` FROM promotion_codes WHERE code = $1`,
		kudos.NormalizePromotionCode(code)))
	return p, notFound(err)
}

// DeactivatePromotion withdraws a code: it is refused from now on (as
// expired); the discounts it already gives run on.
func (db *DB) DeactivatePromotion(ctx context.Context, code string) error {
	tag, err := db.Pool.Exec(ctx, `UPDATE promotion_codes SET active = false WHERE code = $1`, kudos.NormalizePromotionCode(code))
	if err == nil && tag.RowsAffected() == 0 {
		return kudos.Errorf(kudos.ENotFound, "no promotion code %s", kudos.NormalizePromotionCode(code))
	}
	return wrapErr(err)
}

// UsablePromotion returns the code if accountID may use it for plan at now
// (plan "": for any plan it covers), or a 422 fields.promotion_code saying
// why not: unknown, expired (or withdrawn), used up, not for the plan,
// used by the account already, or another promotion still running for the
// account (one at a time).
func (db *DB) UsablePromotion(ctx context.Context, accountID uuid.UUID, code string, plan kudos.Plan, currency string) (*kudos.Promotion, error) {
	code = kudos.NormalizePromotionCode(code)
	refuse := func(why string) error { return kudos.FieldErrors{"promotion_code": why}.Err() }
	if !kudos.ValidPromotionCode(code) {
		return nil, refuse(kudos.FPromotionUnknown)
	}
	p, err := db.Promotion(ctx, code)
	if kudos.ErrorCode(err) == kudos.ENotFound {
		return nil, refuse(kudos.FPromotionUnknown)
	} else if err != nil {
		return nil, err
	}
	// held: the account's open checkout holds a use of the code (asking
	// again for it is no new use).
	var held, used, running bool
	if err := db.Pool.QueryRow(ctx, `SELECT
		EXISTS (SELECT 1 FROM promotion_redemptions r JOIN checkouts c ON c.id = r.checkout_id
			WHERE r.code = $1 AND r.account_id = $2 AND r.released_at IS NULL AND c.status = 'open'),
		EXISTS (SELECT 1 FROM promotion_redemptions r JOIN checkouts c ON c.id = r.checkout_id
			WHERE r.code = $1 AND r.account_id = $2 AND r.released_at IS NULL AND c.status <> 'open'),
		EXISTS (SELECT 1 FROM subscriptions WHERE account_id = $2 AND promotion IS NOT NULL)`, code, accountID).
		Scan(&held, &used, &running); err != nil {
		return nil, wrapErr(err)
	}
	if why := p.Unusable(db.Now(), currency); why != "" && (why != kudos.FPromotionUsedUp || !held) {
		return nil, refuse(why)
	}
	if plan != "" && !p.Covers(plan) {
		return nil, refuse(kudos.FPromotionNotForPlan)
	}
	switch {
	case used:
		return nil, refuse(kudos.FPromotionRedeemed)
	case running:
		return nil, refuse(kudos.FPromotionActive)
	}
	return p, nil
}

// redeemPromotion takes a use of the code of inv's discount line for the
// checkout c, in the transaction that records c (idempotent by checkout).
// The use is counted by a conditional update, which Postgres serializes on
// the code's row: however many checkouts open at once, no more than
// max_redemptions hold a use. An account's earlier checkout still open
// with the same code (replaced by this one) gives its use back first.
func redeemPromotion(ctx context.Context, tx pgx.Tx, c kudos.CheckoutRecord, inv *kudos.Invoice, now time.Time) error {
	if inv == nil || inv.Discount == nil {
		return nil
	}
	code := inv.Discount.Code
	if _, err := tx.Exec(ctx, `WITH r AS (UPDATE promotion_redemptions SET released_at = $4 WHERE code = $1 AND account_id = $2
		AND checkout_id <> $3 AND released_at IS NULL
		AND checkout_id IN (SELECT id FROM checkouts WHERE account_id = $2 AND status <> 'paid') RETURNING code)
		UPDATE promotion_codes p SET redeemed = redeemed - (SELECT count(*) FROM r) WHERE p.code = $1`, code, c.AccountID, c.ID, now); err != nil {
		return wrapErr(err)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO promotion_redemptions (checkout_id, code, account_id, invoice_id, created_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (checkout_id) DO NOTHING`, c.ID, code, c.AccountID, c.InvoiceID, now)
	if isUniqueViolation(err) {
		return kudos.FieldErrors{"promotion_code": kudos.FPromotionRedeemed}.Err()
	}
	if err != nil || tag.RowsAffected() == 0 { // a retry: the use is held already
		return wrapErr(err)
	}
	tag, err = tx.Exec(ctx, `UPDATE promotion_codes SET redeemed = redeemed + 1 WHERE code = $1 AND active
		AND (expires_at IS NULL OR expires_at > $2) AND (max_redemptions IS NULL OR redeemed < max_redemptions)`, code, now)
	if err != nil {
		return wrapErr(err)
	}
	if tag.RowsAffected() == 0 {
		p, err := scanPromotion(tx.QueryRow(ctx, `SELECT `+promotionColumns+` FROM promotion_codes WHERE code = $1`, code))
		if errors.Is(err, pgx.ErrNoRows) {
			return kudos.FieldErrors{"promotion_code": kudos.FPromotionUnknown}.Err()
		} else if err != nil {
			return wrapErr(err)
		}
		why := p.Unusable(now, p.Currency)
		if why == "" {
			why = kudos.FPromotionUsedUp
		}
		return kudos.FieldErrors{"promotion_code": why}.Err()
	}
	return nil
}

// ReleasePromotion gives back the use of a promotion code that a checkout
// closed unpaid held (nothing when it held none, or gave it back already).
func (db *DB) ReleasePromotion(ctx context.Context, checkoutID string) error {
	_, err := db.Pool.Exec(ctx, `WITH r AS (UPDATE promotion_redemptions SET released_at = $2
		WHERE checkout_id = $1 AND released_at IS NULL RETURNING code)
		UPDATE promotion_codes p SET redeemed = redeemed - 1 FROM r WHERE p.code = r.code`, checkoutID, db.Now())
	return wrapErr(err)
}

// discountLine scans an invoice's (or checkout's) discount columns.
type discountLine struct {
	code   *string
	amount *int64
}

// line is the discount line, nil when there is none.
func (d discountLine) line() *kudos.InvoiceDiscount {
	if d.code == nil || d.amount == nil {
		return nil
	}
	return &kudos.InvoiceDiscount{Code: *d.code, Amount: *d.amount}
}

// discountValues are the discount columns' values of a line (NULLs for none).
func discountValues(d *kudos.InvoiceDiscount) []any {
	if d == nil {
		return []any{nil, nil}
	}
	return []any{d.Code, d.Amount}
}
