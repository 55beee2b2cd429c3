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
		region, country, vat_id, vat_id_status, version FROM billing_addresses WHERE account_id = $1`, accountID).Scan(
		&a.OrganizationName, &a.StreetAndNumber, &a.StreetAdditional, &a.PostalCode, &a.City, &a.Region, &a.Country, &a.VATID,
		&a.VATIDStatus, &a.Version)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, wrapErr(err)
	}
	return &a, nil
}

// SaveEffects are what saving a billing address calls for, written in the
// save's transaction: outbox entries (the start of its VAT-id check) and
// billing events (the check's result when it was answered at once).
type SaveEffects struct {
	Outbox []OutboxEntry
	Events []kudos.BillingEvent
}

// SaveBillingAddress creates or replaces the account's billing address
// (with its VATIDStatus; none when it has no VAT id). When expectVersion is
// positive the stored version must equal it, or the change is an EConflict
// (someone saved in between); 0 skips the check. effects, when given, says
// what the saved address (with its new version) calls for. It returns the
// address with its new version.
func (db *DB) SaveBillingAddress(ctx context.Context, accountID uuid.UUID, a kudos.BillingAddress, expectVersion int,
	effects ...func(saved kudos.BillingAddress) SaveEffects) (*kudos.BillingAddress, error) {
	if a.VATID == "" || a.VATIDStatus == "" {
		a.VATIDStatus = kudos.VATIDNone
	}
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if err := liveAccount(ctx, tx, accountID); err != nil {
			return err
		}
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
			postal_code, city, region, country, vat_id, vat_id_status, version, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			ON CONFLICT (account_id) DO UPDATE SET organization_name = $2, street_and_number = $3, street_additional = $4,
			postal_code = $5, city = $6, region = $7, country = $8, vat_id = $9, vat_id_status = $10, version = $11, updated_at = $12`,
			accountID, a.OrganizationName, a.StreetAndNumber, a.StreetAdditional, a.PostalCode, a.City, a.Region, a.Country,
			a.VATID, a.VATIDStatus, a.Version, db.Now())
		if err != nil {
			return wrapErr(err)
		}
		for _, f := range effects {
			e := f(a)
			if err := insertOutbox(ctx, tx, e.Outbox...); err != nil {
				return err
			}
			for _, ev := range e.Events {
				if _, err := AppendBillingEvent(ctx, tx, ev); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// RecordVATCheck writes the result of a VAT-id check made for the address
// version version with id vatID, if the address still has them and its
// check is pending (a later save supersedes the check: nothing stale is
// written), with the outbox entry (the owner's mail) and the billing event
// it calls for and the entries also (the news to the subscription
// workflow), in one transaction. It reports whether it wrote.
func (db *DB) RecordVATCheck(ctx context.Context, accountID uuid.UUID, vatID string, version int, status kudos.VATIDStatus,
	mail OutboxEntry, ev kudos.BillingEvent, also ...OutboxEntry) (bool, error) {
	wrote := false
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE billing_addresses SET vat_id_status = $4
			WHERE account_id = $1 AND vat_id = $2 AND version = $3 AND vat_id_status = 'pending'`, accountID, vatID, version, status)
		if err != nil || tag.RowsAffected() == 0 {
			return wrapErr(err)
		}
		wrote = true
		if err := insertOutbox(ctx, tx, append([]OutboxEntry{mail}, also...)...); err != nil {
			return err
		}
		_, err = AppendBillingEvent(ctx, tx, ev)
		return err
	})
	return wrote, err
}

// VATBasis returns what the account's VAT depends on: its billing country,
// how its VAT id stands and whether it gave one (kudos.BasisOf of its
// address: the zero basis when it has none).
func (db *DB) VATBasis(ctx context.Context, accountID uuid.UUID) (kudos.VATBasis, error) {
	a, err := db.BillingAddress(ctx, accountID)
	if err != nil {
		return kudos.VATBasis{}, err
	}
	return kudos.BasisOf(a), nil
}
