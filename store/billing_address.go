package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// BillingAddress returns the account's billing address, or nil if none is set.
func (db *DB) BillingAddress(ctx context.Context, accountID uuid.UUID) (*kudos.BillingAddress, error) {
	a, _, err := db.VerifiedBillingAddress(ctx, accountID)
	return a, err
}

// VerifiedBillingAddress returns the account's billing address (nil if
// none is set) and, when its VAT id is verified, when VIES last confirmed
// it (nil: not verified, or verified before that time was kept, migration
// 00114).
func (db *DB) VerifiedBillingAddress(ctx context.Context, accountID uuid.UUID) (*kudos.BillingAddress, *time.Time, error) {
	var a kudos.BillingAddress
	var verifiedAt *time.Time
	err := db.Pool.QueryRow(ctx, `SELECT organization_name, street_and_number, street_additional, postal_code, city,
		region, country, vat_id, vat_id_status, version, vat_id_verified_at FROM billing_addresses WHERE account_id = $1`, accountID).Scan(
		&a.OrganizationName, &a.StreetAndNumber, &a.StreetAdditional, &a.PostalCode, &a.City, &a.Region, &a.Country, &a.VATID,
		&a.VATIDStatus, &a.Version, &verifiedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, wrapErr(err)
	}
	return &a, verifiedAt, nil
}

// SaveEffects are what saving a billing address calls for, written in the
// save's transaction: outbox entries (the start of its VAT-id check) and
// billing events (the check's result when it was answered at once).
type SaveEffects struct {
	Outbox []OutboxEntry
	Events []kudos.BillingEvent
}

// SaveBillingAddress creates or replaces the account's billing address
// (with its VATIDStatus; none when it has no VAT id; verified from now,
// unless the stored address has the same id and country verified already,
// whose verification time it keeps). When expectVersion is
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
			postal_code, city, region, country, vat_id, vat_id_status, version, updated_at, vat_id_verified_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, CASE WHEN $10 = 'verified' THEN $12::timestamptz END)
			ON CONFLICT (account_id) DO UPDATE SET organization_name = $2, street_and_number = $3, street_additional = $4,
			postal_code = $5, city = $6, region = $7, country = $8, vat_id = $9, vat_id_status = $10, version = $11, updated_at = $12,
			vat_id_verified_at = CASE WHEN $10 <> 'verified' THEN NULL
				WHEN billing_addresses.vat_id_status = 'verified' AND billing_addresses.vat_id = $9 AND billing_addresses.country = $8
				THEN billing_addresses.vat_id_verified_at ELSE $12 END`,
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
	return db.recordVATStatus(ctx, kudos.VATIDPending, accountID, vatID, version, status, mail, ev, also...)
}

// RecordVATRecheck writes status (invalid) for a verified VAT id that VIES
// was asked about again before an invoice was priced (kudos.VATRecheckAfter),
// as RecordVATCheck writes a pending check's result: only while the address
// keeps the id and version and is verified, with mail, ev and also in the
// same transaction. It reports whether it wrote.
func (db *DB) RecordVATRecheck(ctx context.Context, accountID uuid.UUID, vatID string, version int, status kudos.VATIDStatus,
	mail OutboxEntry, ev kudos.BillingEvent, also ...OutboxEntry) (bool, error) {
	return db.recordVATStatus(ctx, kudos.VATIDVerified, accountID, vatID, version, status, mail, ev, also...)
}

// ReverifyVATID records that VIES confirmed again, now, the verified VAT id
// vatID of the address version version, if the address still has them
// (kudos.VATRecheckAfter counts from now). It reports whether it wrote.
func (db *DB) ReverifyVATID(ctx context.Context, accountID uuid.UUID, vatID string, version int) (bool, error) {
	tag, err := db.Pool.Exec(ctx, `UPDATE billing_addresses SET vat_id_verified_at = $4
		WHERE account_id = $1 AND vat_id = $2 AND version = $3 AND vat_id_status = 'verified'`, accountID, vatID, version, db.Now())
	if err != nil {
		return false, wrapErr(err)
	}
	return tag.RowsAffected() > 0, nil
}

// recordVATStatus is RecordVATCheck for an address whose VAT id stands at
// from: status is written (a verified one from now) with its effects.
func (db *DB) recordVATStatus(ctx context.Context, from kudos.VATIDStatus, accountID uuid.UUID, vatID string, version int,
	status kudos.VATIDStatus, mail OutboxEntry, ev kudos.BillingEvent, also ...OutboxEntry) (bool, error) {
	wrote := false
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE billing_addresses SET vat_id_status = $4,
			vat_id_verified_at = CASE WHEN $4 = 'verified' THEN $6::timestamptz END
			WHERE account_id = $1 AND vat_id = $2 AND version = $3 AND vat_id_status = $5`, accountID, vatID, version, status, from, db.Now())
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
