package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"kudos"
)

// VATAnswer is VIES's answer about vatID of country (an ISO 3166 code)
// given within kudos.VATAnswerTTL, if there is one (found false otherwise).
func (db *DB) VATAnswer(ctx context.Context, country, vatID string) (valid, found bool, err error) {
	err = db.Pool.QueryRow(ctx, `SELECT valid FROM vat_answers WHERE country = $1 AND vat_id = $2 AND checked_at > $3`,
		country, vatID, db.Now().Add(-kudos.VATAnswerTTL)).Scan(&valid)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, false, nil
	}
	return valid, err == nil, wrapErr(err)
}

// SaveVATAnswer keeps VIES's answer about vatID of country, from now, in
// place of any earlier one.
func (db *DB) SaveVATAnswer(ctx context.Context, country, vatID string, valid bool) error {
	_, err := db.Pool.Exec(ctx, `INSERT INTO vat_answers (country, vat_id, valid, checked_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (country, vat_id) DO UPDATE SET valid = excluded.valid, checked_at = excluded.checked_at`,
		country, vatID, valid, db.Now())
	return wrapErr(err)
}
