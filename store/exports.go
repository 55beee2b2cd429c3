package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// exportColumns are the columns scanExport reads.
const exportColumns = `id, user_id, account_id, status, coalesce(object_key, ''), coalesce(size_bytes, 0), created_at, ready_at, expires_at`

func scanExport(row pgx.Row) (*kudos.DataExport, error) {
	var e kudos.DataExport
	err := row.Scan(&e.ID, &e.UserID, &e.AccountID, &e.Status, &e.ObjectKey, &e.SizeBytes, &e.CreatedAt, &e.ReadyAt, &e.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kudos.NotFound()
	}
	return &e, wrapErr(err)
}

// ownedExport holds for a row of data_exports (named e) that its requester
// may have: their own data's, or an account's they still own (issue 35).
const ownedExport = `(e.account_id IS NULL OR EXISTS (SELECT 1 FROM memberships m
	WHERE m.account_id = e.account_id AND m.user_id = e.user_id AND m.role = 'owner'))`

// CreateExport records an export that userID asked for (of accountID, or
// of their own data when it is nil) with the start of its workflow, in one
// transaction. One export is prepared at a time: while one is, asking
// again answers that one (created false) and starts nothing. An account's
// export is its owner's (issue 35): the requester must own it now (403
// otherwise: the ownership moved since the route's check), and an export
// of the account that someone else asked for (an ex-owner's, left
// preparing or ready) is void, never an answer to the new owner.
func (db *DB) CreateExport(ctx context.Context, userID uuid.UUID, accountID *uuid.UUID,
	start func(kudos.DataExport) OutboxEntry) (exp *kudos.DataExport, created bool, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		// The user's row lock orders two requests of the same user; the
		// partial unique indexes keep the rule whatever the order.
		if _, err := tx.Exec(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, userID); err != nil {
			return wrapErr(err)
		}
		q := `SELECT ` + exportColumns + ` FROM data_exports WHERE status = 'preparing' AND user_id = $1 AND `
		args := []any{userID}
		if accountID == nil {
			q += `account_id IS NULL`
		} else {
			if err := voidOthersExports(ctx, tx, *accountID, userID); err != nil {
				return err
			}
			q += `account_id = $2`
			args = append(args, *accountID)
		}
		e, err := scanExport(tx.QueryRow(ctx, q, args...))
		if err == nil {
			exp = e
			return nil
		} else if kudos.ErrorCode(err) != kudos.ENotFound {
			return err
		}
		e = &kudos.DataExport{ID: uuid.New(), UserID: userID, AccountID: accountID, Status: kudos.ExportPreparing, CreatedAt: db.Now()}
		if _, err := tx.Exec(ctx, `INSERT INTO data_exports (id, user_id, account_id, created_at) VALUES ($1, $2, $3, $4)`,
			e.ID, userID, accountID, e.CreatedAt); err != nil {
			return wrapErr(err)
		}
		exp, created = e, true
		return insertOutbox(ctx, tx, start(*e))
	})
	return exp, created, err
}

// voidOthersExports checks that userID owns the account now (the share
// lock on the membership holds a transfer back until the export is
// recorded; the transfer then voids it) and voids the account's exports
// that anyone else asked for and that are still preparing or ready.
func voidOthersExports(ctx context.Context, tx pgx.Tx, accountID, userID uuid.UUID) error {
	var role kudos.Role
	err := tx.QueryRow(ctx, `SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2 FOR SHARE`, accountID, userID).Scan(&role)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return wrapErr(err)
	}
	if role != kudos.RoleOwner {
		return kudos.Errorf(kudos.EForbidden, "only the account's owner may export it")
	}
	_, err = tx.Exec(ctx, `UPDATE data_exports SET status = 'void'
		WHERE account_id = $1 AND user_id <> $2 AND status IN ('preparing', 'ready')`, accountID, userID)
	return wrapErr(err)
}

// voidExportsOf voids the account's exports that userID asked for and that
// are still preparing or ready: they stop being userID's when the
// ownership leaves them (TransferOwnership). The file of a ready one is
// never served again and goes at its expiry, by the workflow's timer.
func voidExportsOf(ctx context.Context, tx pgx.Tx, accountID, userID uuid.UUID) error {
	_, err := tx.Exec(ctx, `UPDATE data_exports SET status = 'void'
		WHERE account_id = $1 AND user_id = $2 AND status IN ('preparing', 'ready')`, accountID, userID)
	return wrapErr(err)
}

// UserExport is an export that userID asked for and may still have
// (ENotFound for anyone else's: one cannot tell another's export exists).
// An account's export that is void, or whose account userID no longer
// owns, is not found either (issue 35): an ex-owner learns nothing more of
// the account from it.
func (db *DB) UserExport(ctx context.Context, userID, id uuid.UUID) (*kudos.DataExport, error) {
	return scanExport(db.Pool.QueryRow(ctx, `SELECT `+exportColumns+` FROM data_exports e
		WHERE e.id = $1 AND e.user_id = $2 AND e.status <> 'void' AND `+ownedExport, id, userID))
}

// VoidUnownedExport voids an account's export, still preparing or ready,
// whose requester no longer owns the account (the build's check, for any
// path by which the ownership ended without voiding it), and reports
// whether the export is void, now or before.
func (db *DB) VoidUnownedExport(ctx context.Context, id uuid.UUID) (bool, error) {
	if _, err := db.Pool.Exec(ctx, `UPDATE data_exports e SET status = 'void'
		WHERE e.id = $1 AND e.status IN ('preparing', 'ready') AND NOT `+ownedExport, id); err != nil {
		return false, wrapErr(err)
	}
	var void bool
	err := db.Pool.QueryRow(ctx, `SELECT status = 'void' FROM data_exports WHERE id = $1`, id).Scan(&void)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return void, wrapErr(err)
}

// Export is an export by its id (the workflow's view).
func (db *DB) Export(ctx context.Context, id uuid.UUID) (*kudos.DataExport, error) {
	return scanExport(db.Pool.QueryRow(ctx, `SELECT `+exportColumns+` FROM data_exports WHERE id = $1`, id))
}

// MarkExportReady records that an export's file is stored under key until
// expiresAt, and answers the export's status then. Only a preparing export
// becomes ready (a retried activity finds it ready and changes nothing),
// and only if its requester may still have it: an account's export whose
// requester no longer owns the account becomes void instead (issue 35).
func (db *DB) MarkExportReady(ctx context.Context, id uuid.UUID, key string, size int64, expiresAt time.Time) (kudos.ExportStatus, error) {
	if _, err := db.Pool.Exec(ctx, `UPDATE data_exports e SET status = CASE WHEN `+ownedExport+` THEN 'ready' ELSE 'void' END,
		object_key = $2, size_bytes = $3, ready_at = $4, expires_at = $5
		WHERE e.id = $1 AND e.status = 'preparing'`, id, key, size, db.Now(), expiresAt); err != nil {
		return "", wrapErr(err)
	}
	var status kudos.ExportStatus
	err := db.Pool.QueryRow(ctx, `SELECT status FROM data_exports WHERE id = $1`, id).Scan(&status)
	return status, notFound(err)
}

// MarkExportExpired records that an export's file was deleted; a void
// export stays void (why it was never served).
func (db *DB) MarkExportExpired(ctx context.Context, id uuid.UUID) error {
	_, err := db.Pool.Exec(ctx, `UPDATE data_exports SET status = 'expired' WHERE id = $1 AND status <> 'void'`, id)
	return wrapErr(err)
}

// exportQueries are the JSON documents of an export, each one query that
// returns one JSON value for its parameter ($1: the user's id for the
// user's files, the account's id for the account's). Columns are named
// one by one: a password hash, a token hash or a provider's secret never
// leaves the database this way.
var (
	userExportQueries = []struct{ name, sql string }{
		{"user.json", `SELECT jsonb_build_object('id', id, 'email', email, 'firstname', firstname, 'lastname', lastname,
			'activated', activated, 'signed_up_with_google', social_login, 'google_linked', oidc_subject IS NOT NULL,
			'created_at', created_at, 'updated_at', updated_at) FROM users WHERE id = $1`},
		{"preferences.json", `SELECT jsonb_build_object('preferred_language', preferred_language,
			'opt_in_notifications', opt_in_notifications, 'opt_in_marketing', opt_in_marketing,
			'opt_in_terms_of_use', opt_in_terms_of_use) FROM users WHERE id = $1`},
		{"memberships.json", `SELECT coalesce(jsonb_agg(jsonb_build_object('account_id', a.id, 'account_name', a.name,
			'role', m.role, 'joined_at', m.created_at) ORDER BY m.created_at), '[]')
			FROM memberships m JOIN accounts a ON a.id = m.account_id WHERE m.user_id = $1`},
		{"sessions.json", `SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'created_at', created_at,
			'last_seen_at', last_seen_at, 'user_agent', user_agent, 'network', ip_network, 'expires_at', expires_at,
			'ended_at', revoked_at)
			ORDER BY created_at), '[]') FROM sessions WHERE user_id = $1`},
		{"feature_requests.json", `SELECT coalesce(jsonb_agg(jsonb_build_object('account_id', account_id, 'area', area,
			'profile', profile, 'description', description, 'created_at', created_at) ORDER BY created_at), '[]')
			FROM feature_requests WHERE user_id = $1`},
		// A passkey's name and dates, never its public key record.
		{"passkeys.json", `SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'name', name, 'created_at', created_at,
			'last_used_at', last_used_at) ORDER BY created_at), '[]') FROM passkeys WHERE user_id = $1`},
	}
	accountExportQueries = []struct{ name, sql string }{
		{"account.json", `SELECT jsonb_build_object('id', id, 'name', name, 'logo', img_url, 'created_at', created_at)
			FROM accounts WHERE id = $1`},
		{"members.json", `SELECT coalesce(jsonb_agg(jsonb_build_object('email', u.email, 'firstname', u.firstname,
			'lastname', u.lastname, 'role', m.role, 'joined_at', m.created_at) ORDER BY m.created_at), '[]')
			FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1`},
		{"subscription.json", `SELECT coalesce((SELECT jsonb_build_object('plan', plan, 'status', show_status,
			'renews_at', plan_renewal_at, 'trial_expires_at', trial_expires_at, 'updated_at', updated_at)
			FROM subscriptions WHERE account_id = $1), 'null')`},
		{"billing_address.json", `SELECT coalesce((SELECT jsonb_build_object('organization_name', organization_name,
			'street_and_number', street_and_number, 'street_additional', street_additional, 'postal_code', postal_code,
			'city', city, 'region', region, 'country', country, 'vat_id', vat_id, 'updated_at', updated_at)
			FROM billing_addresses WHERE account_id = $1), 'null')`},
		{"invoices.json", `SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'number', number, 'kind', kind,
			'plan', plan, 'description', description, 'net_amount', net_amount, 'vat_amount', vat_amount,
			'vat_rate', vat_rate, 'total_amount', total_amount, 'currency', currency, 'status', status,
			'created_at', created_at, 'paid_at', paid_at, 'service_from', service_from, 'service_to', service_to,
			'vat_outside_eu', vat_outside_eu, 'pdf', CASE WHEN pdf_key IS NULL THEN NULL ELSE 'invoices/' || number || '.pdf' END)
			ORDER BY created_at), '[]') FROM invoices WHERE account_id = $1 AND number IS NOT NULL`},
		{"billing_timeline.json", `SELECT coalesce(jsonb_agg(jsonb_build_object('at', at, 'type', type, 'plan', plan,
			'amount', amount, 'currency', currency, 'invoice_id', invoice_id) ORDER BY at, seq), '[]')
			FROM billing_events WHERE account_id = $1`},
		{"feature_requests.json", `SELECT coalesce(jsonb_agg(jsonb_build_object('area', f.area, 'profile', f.profile,
			'description', f.description, 'created_at', f.created_at, 'by', u.email) ORDER BY f.created_at), '[]')
			FROM feature_requests f JOIN users u ON u.id = f.user_id WHERE f.account_id = $1`},
	}
)

// ExportFiles are the files of an export: its JSON documents, read in one
// repeatable-read snapshot, and the stored invoice PDFs of an account's.
func (db *DB) ExportFiles(ctx context.Context, e kudos.DataExport) ([]kudos.ExportFile, error) {
	queries, param := userExportQueries, e.UserID
	if e.AccountID != nil {
		queries, param = accountExportQueries, *e.AccountID
	}
	var files []kudos.ExportFile
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		for _, q := range queries {
			var doc []byte
			if err := tx.QueryRow(ctx, q.sql, param).Scan(&doc); err != nil {
				return wrapErr(err)
			}
			files = append(files, kudos.ExportFile{Name: q.name, JSON: doc})
		}
		if e.AccountID == nil {
			return nil
		}
		rows, err := tx.Query(ctx, `SELECT number, pdf_key FROM invoices
			WHERE account_id = $1 AND number IS NOT NULL AND pdf_key IS NOT NULL ORDER BY created_at`, param)
		if err != nil {
			return wrapErr(err)
		}
		defer rows.Close()
		for rows.Next() {
			var number, key string
			if err := rows.Scan(&number, &key); err != nil {
				return wrapErr(err)
			}
			files = append(files, kudos.ExportFile{Name: "invoices/" + number + ".pdf", ObjectKey: key})
		}
		return wrapErr(rows.Err())
	}, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	return files, err
}

// ExportMailFacts are what the data_export_ready mail needs: the
// recipient's address, name and language, and the account's name for an
// account's export.
func (db *DB) ExportMailFacts(ctx context.Context, e kudos.DataExport) (to, name, language, accountName string, err error) {
	err = db.Pool.QueryRow(ctx, `SELECT u.email, u.firstname, u.preferred_language, coalesce(a.name, '')
		FROM users u LEFT JOIN accounts a ON a.id = $2 WHERE u.id = $1`, e.UserID, e.AccountID).Scan(&to, &name, &language, &accountName)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", "", "", "", kudos.NotFound()
	}
	return to, name, language, accountName, wrapErr(err)
}
