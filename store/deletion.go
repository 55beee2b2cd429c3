package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"kudos"
)

// DeletionRecipient is a member told of the account's scheduled deletion.
type DeletionRecipient struct {
	UserID   uuid.UUID
	Email    string
	Name     string
	Language string
	Role     kudos.Role
}

// DeletionOutbox are the outbox entries of a scheduled deletion: its
// workflow's start, and one mail per member; and of a cancelled one: the
// update that ends the workflow.
type DeletionOutbox struct {
	Start  func(accountID uuid.UUID, at time.Time) OutboxEntry
	Mail   func(accountID uuid.UUID, accountName string, at time.Time, to DeletionRecipient) OutboxEntry
	Cancel func(accountID uuid.UUID, at time.Time) OutboxEntry
	// Unlock tells the account's subscription workflow that the deletion
	// was cancelled (it refuses money requests while one is under way),
	// and whether to turn back on the auto-renewal the deletion stopped;
	// nil: no entry.
	Unlock func(accountID uuid.UUID, at time.Time, autoRenewal bool) OutboxEntry
}

// errNoDeletion answers a cancel when no deletion is scheduled.
var errNoDeletion = kudos.Errorf(kudos.EConflict, "no deletion of this account is scheduled")

// ScheduleAccountDeletion schedules the account's deletion at at (the
// grace period's end), with the timeline's event, its workflow's start and
// a mail to every member, in one transaction. A deletion already scheduled
// is answered as it stands (its date unchanged: asking twice never delays
// it, nor mails twice).
//
// stoppedRenewal records that scheduling it turned the auto-renewal off
// (the cancel may turn it back on).
func (db *DB) ScheduleAccountDeletion(ctx context.Context, accountID, actorID uuid.UUID, at time.Time, stoppedRenewal bool,
	out DeletionOutbox) (time.Time, error) {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var name, actor string
		var current *time.Time
		if err := tx.QueryRow(ctx, `SELECT a.name, a.deletion_at, u.email FROM accounts a, users u
			WHERE a.id = $1 AND u.id = $2 AND a.deleted_at IS NULL FOR UPDATE OF a`, accountID, actorID).Scan(&name, &current, &actor); err != nil {
			return notFound(err)
		}
		if current != nil {
			at = *current
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE accounts SET deletion_at = $2, deletion_stopped_renewal = $4, updated_at = $3 WHERE id = $1`,
			accountID, at, db.Now(), stoppedRenewal); err != nil {
			return wrapErr(err)
		}
		if _, err := AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, Type: kudos.EventDeletionScheduled,
			Key: "deletion_scheduled:" + at.Format(time.RFC3339Nano), ActorEmail: actor}); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT u.id, u.email, u.firstname, u.preferred_language, m.role FROM memberships m
			JOIN users u ON u.id = m.user_id WHERE m.account_id = $1 ORDER BY m.created_at`, accountID)
		if err != nil {
			return wrapErr(err)
		}
		members, err := pgx.CollectRows(rows, pgx.RowToStructByPos[DeletionRecipient])
		if err != nil {
			return wrapErr(err)
		}
		entries := []OutboxEntry{out.Start(accountID, at)}
		for _, m := range members {
			entries = append(entries, out.Mail(accountID, name, at, m))
		}
		return insertOutbox(ctx, tx, entries...)
	})
	return at, err
}

// CancelAccountDeletion cancels the account's scheduled deletion, with
// the timeline's event and the update that ends its workflow (EConflict
// when none is scheduled). An owner whose own deletion is scheduled is
// refused (EConflict, issue 35): the account would be theirs again and
// block their erasure; they cancel their own first. With autoRenewal the
// outbox's unlock also turns back on the auto-renewal that scheduling the
// deletion stopped, so that the owner's choice is kept even if the api's
// own call to the workflow fails after this commits. It returns the time
// the deletion was scheduled for (which names its outbox entries) and
// whether scheduling it had stopped the auto-renewal.
func (db *DB) CancelAccountDeletion(ctx context.Context, accountID, actorID uuid.UUID, autoRenewal bool, out DeletionOutbox) (
	scheduled time.Time, stoppedRenewal bool, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		var at, leaving *time.Time
		var actor string
		if err := tx.QueryRow(ctx, `SELECT a.deletion_at, a.deletion_stopped_renewal, u.email, u.deletion_at FROM accounts a, users u
			WHERE a.id = $1 AND u.id = $2 AND a.deleted_at IS NULL FOR UPDATE OF a, u`, accountID, actorID).
			Scan(&at, &stoppedRenewal, &actor, &leaving); err != nil {
			return notFound(err)
		}
		if at == nil {
			return errNoDeletion
		}
		if leaving != nil {
			return kudos.Errorf(kudos.EConflict, "Your own deletion is scheduled: cancel it first, or this account would keep you")
		}
		if _, err := tx.Exec(ctx, `UPDATE accounts SET deletion_at = NULL, deletion_stopped_renewal = false, updated_at = $2 WHERE id = $1`,
			accountID, db.Now()); err != nil {
			return wrapErr(err)
		}
		if _, err := AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, Type: kudos.EventDeletionCancelled,
			Key: "deletion_cancelled:" + at.Format(time.RFC3339Nano), ActorEmail: actor}); err != nil {
			return err
		}
		scheduled = *at
		entries := []OutboxEntry{out.Cancel(accountID, *at)}
		if out.Unlock != nil {
			entries = append(entries, out.Unlock(accountID, *at, autoRenewal && stoppedRenewal))
		}
		return insertOutbox(ctx, tx, entries...)
	})
	return scheduled, stoppedRenewal, err
}

// AccountDeletionAt is when the account is to be deleted (nil: no
// deletion is scheduled, or it was cancelled); ENotFound once deleted.
func (db *DB) AccountDeletionAt(ctx context.Context, accountID uuid.UUID) (*time.Time, error) {
	var at *time.Time
	err := db.Pool.QueryRow(ctx, `SELECT deletion_at FROM accounts WHERE id = $1 AND deleted_at IS NULL`, accountID).Scan(&at)
	return at, notFound(err)
}

// AccountErased reports whether the account has been erased (ENotFound
// when there is no such account): a payment event of an erased account is
// refunded, never applied (issue 34).
func (db *DB) AccountErased(ctx context.Context, accountID uuid.UUID) (bool, error) {
	var erased bool
	err := db.Pool.QueryRow(ctx, `SELECT deleted_at IS NOT NULL FROM accounts WHERE id = $1`, accountID).Scan(&erased)
	return erased, notFound(err)
}

// OpenMethodCheckouts are the account's open checkouts that add a payment
// method (the api's own, which no workflow closes): a deletion closes them.
func (db *DB) OpenMethodCheckouts(ctx context.Context, accountID uuid.UUID) ([]kudos.CheckoutRecord, error) {
	rows, err := db.Pool.Query(ctx, `SELECT id, provider_id FROM checkouts
		WHERE account_id = $1 AND purpose = 'payment_method' AND status = 'open' ORDER BY created_at`, accountID)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kudos.CheckoutRecord, error) {
		c := kudos.CheckoutRecord{AccountID: accountID, Purpose: kudos.CheckoutPaymentMethod}
		return c, r.Scan(&c.ID, &c.ProviderID)
	})
	return out, wrapErr(err)
}

// ErasedAccount is what EraseAccount leaves for the workflow to remove
// outside Postgres: the provider's customer and the stored objects (the
// logo, data exports, the drafts of invoices: pro-formas and payment
// requests, which print the buyer).
type ErasedAccount struct {
	// Already: the account had been erased by an earlier attempt (the
	// same customer and objects are handed out again).
	Already    bool
	CustomerID string
	Objects    []string
}

// EraseAccount erases the account's personal data once its deletion is
// due, in one transaction: the members lose it (memberships, invitations,
// exports and invoice drafts go; a member with no account left gets one of their own at
// their next sign-in), the billing address and feature requests are
// deleted, the name and logo are replaced, e-mail addresses leave the
// timeline, and the account is marked deleted with the timeline's
// deletion_completed. Invoices (and their PDFs, numbers and amounts), the
// subscription's read model and the money events stay: the law keeps them
// 10 years. A deletion cancelled or not yet due is EConflict.
func (db *DB) EraseAccount(ctx context.Context, accountID uuid.UUID) (ErasedAccount, error) {
	var out ErasedAccount
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var at, deleted *time.Time
		var img string
		err := tx.QueryRow(ctx, `SELECT deletion_at, deleted_at, img_url FROM accounts WHERE id = $1 FOR UPDATE`, accountID).
			Scan(&at, &deleted, &img)
		if errors.Is(err, pgx.ErrNoRows) {
			out.Already = true
			return nil
		} else if err != nil {
			return wrapErr(err)
		}
		if deleted != nil { // erased by an earlier attempt whose answer was lost: the same work again
			out.Already = true
			err := tx.QueryRow(ctx, `SELECT customer_id, objects FROM erasures WHERE subject = $1`, "account:"+accountID.String()).
				Scan(&out.CustomerID, &out.Objects)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			return wrapErr(err)
		}
		if at == nil || at.After(db.Now()) {
			return kudos.Errorf(kudos.EConflict, "the account's deletion is not due")
		}
		if kudos.LogoStateOf(img) == kudos.LogoReady {
			out.Objects = append(out.Objects, img)
		}
		rows, err := tx.Query(ctx, `DELETE FROM data_exports WHERE account_id = $1 RETURNING coalesce(object_key, '')`, accountID)
		if err != nil {
			return wrapErr(err)
		}
		keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return wrapErr(err)
		}
		rows, err = tx.Query(ctx, `DELETE FROM invoice_drafts WHERE account_id = $1 RETURNING key`, accountID)
		if err != nil {
			return wrapErr(err)
		}
		drafts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return wrapErr(err)
		}
		for _, k := range append(keys, drafts...) {
			if k != "" {
				out.Objects = append(out.Objects, k)
			}
		}
		if err := tx.QueryRow(ctx, `DELETE FROM payment_customers WHERE account_id = $1 RETURNING customer_id`, accountID).
			Scan(&out.CustomerID); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return wrapErr(err)
		}
		for _, q := range accountErasure {
			if _, err := tx.Exec(ctx, q, accountID); err != nil {
				return wrapErr(err)
			}
		}
		now := db.Now()
		if _, err := tx.Exec(ctx, `UPDATE accounts SET name = $2, img_url = $3, logo_upload_key = '', logo_error = '',
			deletion_at = NULL, deleted_at = $4, updated_at = $4 WHERE id = $1`, accountID, kudos.DeletedAccountName, kudos.LogoPlaceholder, now); err != nil {
			return wrapErr(err)
		}
		if out.Objects == nil {
			out.Objects = []string{}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO erasures (subject, customer_id, objects, erased_at) VALUES ($1, $2, $3, $4)`,
			"account:"+accountID.String(), out.CustomerID, out.Objects, now); err != nil {
			return wrapErr(err)
		}
		_, err = AppendBillingEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, Type: kudos.EventDeletionCompleted,
			Key: "deletion_completed:" + accountID.String(), At: now})
		return err
	})
	return out, err
}

// UserDeletionOutbox are the outbox entries of a user's own deletion: its
// workflow's start, and the update that ends it on a cancel.
type UserDeletionOutbox struct {
	Start  func(userID uuid.UUID, at time.Time) OutboxEntry
	Cancel func(userID uuid.UUID, at time.Time) OutboxEntry
}

// ownedAccount is the first account userID owns that is neither deleted nor
// being deleted ("" when none): an owner transfers it or deletes it before
// leaving.
func ownedAccount(ctx context.Context, q querier, userID uuid.UUID) (string, error) {
	var name string
	err := q.QueryRow(ctx, `SELECT a.name FROM memberships m JOIN accounts a ON a.id = m.account_id
		WHERE m.user_id = $1 AND m.role = 'owner' AND a.deleted_at IS NULL AND a.deletion_at IS NULL
		ORDER BY a.created_at LIMIT 1`, userID).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return name, wrapErr(err)
}

// errStillOwner refuses to delete the owner of an account.
func errStillOwner(account string) error {
	return kudos.Errorf(kudos.EConflict, "You own %s: transfer its ownership or delete it first", account)
}

// ScheduleUserDeletion schedules the user's own deletion at at, with the
// start of its workflow, in one transaction. The owner of an account (not
// itself being deleted) is refused (EConflict). A deletion already
// scheduled is answered as it stands.
func (db *DB) ScheduleUserDeletion(ctx context.Context, userID uuid.UUID, at time.Time, out UserDeletionOutbox) (time.Time, error) {
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var current *time.Time
		if err := tx.QueryRow(ctx, `SELECT deletion_at FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&current); err != nil {
			return notFound(err)
		}
		if current != nil {
			at = *current
			return nil
		}
		if owned, err := ownedAccount(ctx, tx, userID); err != nil {
			return err
		} else if owned != "" {
			return errStillOwner(owned)
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET deletion_at = $2, updated_at = $3 WHERE id = $1`, userID, at, db.Now()); err != nil {
			return wrapErr(err)
		}
		return insertOutbox(ctx, tx, out.Start(userID, at))
	})
	return at, err
}

// CancelUserDeletion cancels the user's scheduled deletion (EConflict when
// none is) and ends its workflow.
func (db *DB) CancelUserDeletion(ctx context.Context, userID uuid.UUID, out UserDeletionOutbox) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var at *time.Time
		if err := tx.QueryRow(ctx, `SELECT deletion_at FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&at); err != nil {
			return notFound(err)
		}
		if at == nil {
			return kudos.Errorf(kudos.EConflict, "no deletion of this user is scheduled")
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET deletion_at = NULL, updated_at = $2 WHERE id = $1`, userID, db.Now()); err != nil {
			return wrapErr(err)
		}
		return insertOutbox(ctx, tx, out.Cancel(userID, *at))
	})
}

// UserDeletion is a user's own scheduled deletion as they see it.
type UserDeletion struct {
	// At is when it erases them (nil: none is scheduled).
	At *time.Time `json:"deletion_at"`
	// BlockedBy names the account they own that keeps the erasure waiting
	// (nil: nothing does).
	BlockedBy *string `json:"blocked_by"`
}

// UserDeletionOf reads the user's scheduled deletion and what blocks it.
func (db *DB) UserDeletionOf(ctx context.Context, userID uuid.UUID) (UserDeletion, error) {
	var d UserDeletion
	err := db.Pool.QueryRow(ctx, `SELECT deletion_at, `+deletionBlockedBy+` FROM users u WHERE id = $1`, userID).Scan(&d.At, &d.BlockedBy)
	return d, notFound(err)
}

// deletionBlockedBy is the SQL expression of the account that blocks the
// erasure of the user u (ownedAccount), NULL when none does or no deletion
// is scheduled.
const deletionBlockedBy = `CASE WHEN u.deletion_at IS NULL THEN NULL ELSE (SELECT ba.name FROM memberships bm
	JOIN accounts ba ON ba.id = bm.account_id WHERE bm.user_id = u.id AND bm.role = 'owner' AND ba.deleted_at IS NULL
	AND ba.deletion_at IS NULL ORDER BY ba.created_at LIMIT 1) END`

// UserDeletionAt is when the user is to be deleted (nil: not scheduled, or
// cancelled); ENotFound once erased.
func (db *DB) UserDeletionAt(ctx context.Context, userID uuid.UUID) (*time.Time, error) {
	var at *time.Time
	err := db.Pool.QueryRow(ctx, `SELECT deletion_at FROM users WHERE id = $1`, userID).Scan(&at)
	return at, notFound(err)
}

// ErasedUser is what EraseUser did: Blocked when the user owns an account
// again (it became theirs during the grace period: the erasure waits),
// and the stored files (their data exports) left to remove.
type ErasedUser struct {
	Already bool
	Blocked string
	Objects []string
}

// EraseUser erases a user whose deletion is due, in one transaction: their
// e-mail address leaves every timeline that names it, and their row goes
// with everything that hangs on it (memberships, sessions, tokens, exports,
// feature requests); the address can sign up anew. A user who owns an
// account again is Blocked (nothing changes). Not due or cancelled is
// EConflict.
//
// The invitations the user sent that are still pending are revoked first,
// as when a member leaves (team tells their workflows): erased, they could
// never be accepted.
func (db *DB) EraseUser(ctx context.Context, userID uuid.UUID, team TeamOutbox) (ErasedUser, error) {
	var out ErasedUser
	subject := "user:" + userID.String()
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var at *time.Time
		err := tx.QueryRow(ctx, `SELECT deletion_at FROM users WHERE id = $1 FOR UPDATE`, userID).Scan(&at)
		if errors.Is(err, pgx.ErrNoRows) { // erased by an earlier attempt whose answer was lost: the same work again
			out.Already = true
			err := tx.QueryRow(ctx, `SELECT objects FROM erasures WHERE subject = $1`, subject).Scan(&out.Objects)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			return wrapErr(err)
		} else if err != nil {
			return wrapErr(err)
		}
		if at == nil || at.After(db.Now()) {
			return kudos.Errorf(kudos.EConflict, "the user's deletion is not due")
		}
		if out.Blocked, err = ownedAccount(ctx, tx, userID); err != nil || out.Blocked != "" {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT object_key FROM data_exports WHERE user_id = $1 AND object_key IS NOT NULL`, userID)
		if err != nil {
			return wrapErr(err)
		}
		if out.Objects, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return wrapErr(err)
		}
		if out.Objects == nil {
			out.Objects = []string{}
		}
		rows, err = tx.Query(ctx, invitedToSQL, userID)
		if err != nil {
			return wrapErr(err)
		}
		invitedTo, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		if err != nil {
			return wrapErr(err)
		}
		for _, accountID := range invitedTo { // no actor named: the user is being erased
			if err := revokeInvitationsBy(ctx, tx, accountID, userID, "", db.Now(), team); err != nil {
				return err
			}
		}
		stints, err := addressStints(ctx, tx, userID)
		if err != nil {
			return err
		}
		for _, q := range userAddressErasure {
			if _, err := tx.Exec(ctx, q, stints.emails, stints.since, stints.until); err != nil {
				return wrapErr(err)
			}
		}
		for _, q := range userErasure {
			if _, err := tx.Exec(ctx, q, userID); err != nil {
				return wrapErr(err)
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, userID); err != nil {
			return wrapErr(err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO erasures (subject, objects, erased_at) VALUES ($1, $2, $3)`, subject, out.Objects, db.Now())
		return wrapErr(err)
	})
	return out, err
}

// accountErasure are EraseAccount's statements on the rows that name the
// account ($1: its id).
var accountErasure = []string{
	`DELETE FROM memberships WHERE account_id = $1`,
	`DELETE FROM invitations WHERE account_id = $1`,
	`DELETE FROM billing_addresses WHERE account_id = $1`,
	// The quotes' copies of the address go with it: the checkouts'
	// and those of invoices never issued (an issued invoice keeps
	// its buyer: it is kept by law).
	`UPDATE checkouts SET buyer_organization_name = NULL, buyer_street_and_number = NULL, buyer_street_additional = NULL,
		buyer_postal_code = NULL, buyer_city = NULL, buyer_region = NULL, buyer_country = NULL, buyer_vat_id = NULL
		WHERE account_id = $1 AND buyer_organization_name IS NOT NULL`,
	`UPDATE invoices SET buyer_organization_name = NULL, buyer_street_and_number = NULL, buyer_street_additional = NULL,
		buyer_postal_code = NULL, buyer_city = NULL, buyer_region = NULL, buyer_country = NULL, buyer_vat_id = NULL
		WHERE account_id = $1 AND number IS NULL AND buyer_organization_name IS NOT NULL`,
	`DELETE FROM feature_requests WHERE account_id = $1`,
	`UPDATE users SET last_account_id = NULL WHERE last_account_id = $1`,
	// Delivered outbox entries that name the account (its mails, with
	// names and addresses) go now rather than at the next prune, found
	// through the index of the ids each names (outbox_ids, migration
	// 00110): the account's entries, not the week's deliveries of all.
	`DELETE FROM outbox WHERE delivered_at IS NOT NULL AND outbox_ids(payload) @> ARRAY[$1::text]`,
	`UPDATE billing_events SET member_email = NULL, actor_email = NULL
		WHERE account_id = $1 AND (member_email IS NOT NULL OR actor_email IS NOT NULL)`,
}

// invitedToSQL lists the accounts where the user ($1) has invitations
// pending.
const invitedToSQL = `SELECT DISTINCT account_id FROM invitations WHERE invited_by = $1 AND status = 'pending'`

// stints are the user's addresses (lower case), each with when the rows
// naming it are theirs (stintsSQL): since (inclusive) and until
// (exclusive), NULL for no bound.
type stints struct {
	emails       []string
	since, until []pgtype.Timestamptz
}

// stintsSQL lists every address the user ($1) had, the one now and those
// an e-mail change replaced (the timeline names a member by the address of
// the day), with the time its rows are the user's, and whether another
// user has the address now or had it (shared). The rows that name an
// address nobody else had are the user's whenever they were written; those
// that name a shared one are the user's from when its holder before them
// left it (since; none: no bound) until the user left it (until; none for
// the address now): before, they were that holder's, and after, the next
// holder's (one who signed up with the address the user left, invited to
// it before or not). Mail sent to an address before its holder took it (an
// invitation) is theirs: the previous holder had left it.
const stintsSQL = `WITH mine AS (
		SELECT email, lag(replaced_at) OVER (ORDER BY replaced_at) AS taken, replaced_at AS until
		FROM user_former_emails WHERE user_id = $1
		UNION ALL
		SELECT lower(email), (SELECT max(replaced_at) FROM user_former_emails WHERE user_id = $1), NULL FROM users WHERE id = $1)
	SELECT m.email,
		(SELECT max(f.replaced_at) FROM user_former_emails f WHERE f.email = m.email AND f.user_id <> $1
			AND f.replaced_at <= coalesce(m.taken, (SELECT created_at FROM users WHERE id = $1))),
		m.until,
		EXISTS (SELECT 1 FROM users o WHERE lower(o.email) = m.email AND o.id <> $1)
			OR EXISTS (SELECT 1 FROM user_former_emails f WHERE f.email = m.email AND f.user_id <> $1)
	FROM mine m`

// addressStints reads the user's stints (stintsSQL): an address no other
// user had is the user's with no bound.
func addressStints(ctx context.Context, tx pgx.Tx, userID uuid.UUID) (stints, error) {
	var out stints
	rows, err := tx.Query(ctx, stintsSQL, userID)
	if err != nil {
		return out, wrapErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var email string
		var since, until pgtype.Timestamptz
		var shared bool
		if err := rows.Scan(&email, &since, &until, &shared); err != nil {
			return out, wrapErr(err)
		}
		if !shared {
			since, until = pgtype.Timestamptz{}, pgtype.Timestamptz{}
		}
		out.emails, out.since, out.until = append(out.emails, email), append(out.since, since), append(out.until, until)
	}
	return out, wrapErr(rows.Err())
}

// addressStintsFrom joins EraseUser's statements to the user's stints
// ($1 addresses, $2 and $3 their bounds: stints), and stintHolds is true
// of a row written at the time (column) within its stint.
const addressStintsFrom = `unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) s(email, since, until)`

func stintHolds(column string) string {
	return `(s.since IS NULL OR ` + column + ` >= s.since) AND (s.until IS NULL OR ` + column + ` < s.until)`
}

// userAddressErasure are EraseUser's statements on the rows that name one
// of the user's addresses, written while it was theirs (stints).
var userAddressErasure = []string{
	`UPDATE billing_events e SET member_email = NULL FROM ` + addressStintsFrom + `
		WHERE lower(e.member_email) = s.email AND ` + stintHolds("e.at"),
	`UPDATE billing_events e SET actor_email = NULL FROM ` + addressStintsFrom + `
		WHERE lower(e.actor_email) = s.email AND ` + stintHolds("e.at"),
	`UPDATE invitations i SET email = '' FROM ` + addressStintsFrom + `
		WHERE lower(i.email) = s.email AND i.status <> 'pending' AND ` + stintHolds("i.created_at"),
	// Delivered mails to the addresses go now rather than at the next
	// prune. Their outbox is read whole (no index serves a substring of
	// the payload; it holds the relay's Retention of deliveries).
	`DELETE FROM outbox o WHERE o.delivered_at IS NOT NULL AND EXISTS (SELECT 1 FROM ` + addressStintsFrom + `
		WHERE strpos(lower(o.payload::text), s.email) > 0 AND ` + stintHolds("o.created_at") + `)`,
}

// userErasure are EraseUser's statements on the rows that name the user
// ($1: their id) before their row goes.
var userErasure = []string{
	// The invitations they accepted, whatever address they bore.
	`UPDATE invitations SET email = '' WHERE accepted_by = $1 AND status <> 'pending'`,
}
