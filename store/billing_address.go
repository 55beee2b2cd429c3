package store

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// BillingAddress returns the account's billing address, or nil if none is set.
func (db *DB) BillingAddress(ctx context.Context, accountID uuid.UUID) (*kudos.BillingAddress, error) {
	var a kudos.BillingAddress
	err := db.Pool.QueryRow(ctx, `SELECT organization_name, street_and_number, street_additional, postal_code, city,
		region, country, vat_id, version FROM billing_addresses WHERE account_id = $1`, accountID).Scan(
		&a.OrganizationName, &a.StreetAndNumber, &a.StreetAdditional, &a.PostalCode, &a.City, &a.Region, &a.Country, &a.VATID, &a.Version)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, wrapErr(err)
	}
	return &a, nil
}

// SaveBillingAddress creates or replaces the account's billing address. When
// expectVersion is positive the stored version must equal it, or the change
// is an EConflict (someone saved in between); 0 skips the check. It returns
// the address with its new version.
func (db *DB) SaveBillingAddress(ctx context.Context, accountID uuid.UUID, a kudos.BillingAddress, expectVersion int) (*kudos.BillingAddress, error) {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var current int
		err := tx.QueryRow(ctx, `SELECT version FROM billing_addresses WHERE account_id = $1 FOR UPDATE`, accountID).Scan(&current)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return wrapErr(err)
		}
		if expectVersion > 0 && expectVersion != current {
			return kudos.Errorf(kudos.EConflict, "Edit conflict")
		}
		a.Version = current + 1
		_, err = tx.Exec(ctx, `INSERT INTO billing_addresses (account_id, organization_name, street_and_number, street_additional,
			postal_code, city, region, country, vat_id, version, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (account_id) DO UPDATE SET organization_name = $2, street_and_number = $3, street_additional = $4,
			postal_code = $5, city = $6, region = $7, country = $8, vat_id = $9, version = $10, updated_at = $11`,
			accountID, a.OrganizationName, a.StreetAndNumber, a.StreetAdditional, a.PostalCode, a.City, a.Region, a.Country,
			a.VATID, a.Version, db.Now())
		return wrapErr(err)
	})
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// BillingCountry returns the country of the account's billing address, or "".
func (db *DB) BillingCountry(ctx context.Context, accountID uuid.UUID) (string, error) {
	var c string
	err := db.Pool.QueryRow(ctx, `SELECT country FROM billing_addresses WHERE account_id = $1`, accountID).Scan(&c)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return c, wrapErr(err)
}
