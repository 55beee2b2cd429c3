package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// TeamOutbox builds the outbox entries of team changes (package dispatch
// provides it: dispatch.Team), so that a change and the work it causes are
// one transaction.
type TeamOutbox struct {
	// Mail delivers one mail.
	Mail func(req kudos.MailRequest) OutboxEntry
	// InvitationStart starts the workflow of a new invitation, which mails
	// it (key is what its token derives from).
	InvitationStart func(inv kudos.Invitation, key string) OutboxEntry
	// InvitationUpdate tells an invitation's workflow of a change made
	// here: accepted, revoked, or resent (with the new key and expiry).
	InvitationUpdate func(invitationID uuid.UUID, change InvitationChange) OutboxEntry
}

// InvitationChange is what happened to an invitation, for its workflow.
type InvitationChange struct {
	// Kind is "accepted", "revoked" or "resent".
	Kind string
	// Key and ExpiresAt are a resend's: the new token's key and expiry.
	Key       string
	ExpiresAt time.Time
}

// Kinds of InvitationChange.
const (
	InvitationAccepted = "accepted"
	InvitationRevoked  = "revoked"
	InvitationResent   = "resent"
)

// lockAccount takes the account's row lock that serialises its team
// changes (invitations, acceptances, role changes), so that two at once
// cannot both take the last seat. FOR NO KEY UPDATE does not hold up inserts
// that merely reference the account.
func lockAccount(ctx context.Context, tx pgx.Tx, accountID uuid.UUID) (name string, err error) {
	err = tx.QueryRow(ctx, `SELECT name FROM accounts WHERE id = $1 AND deleted_at IS NULL FOR NO KEY UPDATE`, accountID).Scan(&name)
	return name, notFound(err)
}

// liveAccount holds the account against its erasure until tx ends
// (ENotFound once it is erased): a write of its personal data that raced
// the erasure waits for it, then finds the account gone, and writes
// nothing the erasure would never see.
func liveAccount(ctx context.Context, tx pgx.Tx, accountID uuid.UUID) error {
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM accounts WHERE id = $1 AND deleted_at IS NULL FOR SHARE`, accountID).Scan(&one)
	return notFound(err)
}

// payingPlan is the plan of the open checkout that changes the plan of the
// account of subscriptions row s (empty when none), and the extra seats its
// invoice bills (a due invoice of a Team plan with its seats): while it is
// open the seats are what that payment buys, if fewer
// (kudos.SeatLimitWhilePaying).
const payingPlan = `coalesce(p.plan, ''), coalesce(p.seats, 0)`

// payingCheckout is the join of payingPlan's open checkout to subscriptions
// row s.
const payingCheckout = ` LEFT JOIN LATERAL (SELECT c.plan, (SELECT sum((l->>'quantity')::int) FROM jsonb_array_elements(c.invoice_lines) l
	WHERE l->>'kind' = 'seats') AS seats FROM checkouts c WHERE c.account_id = s.account_id AND c.status = 'open'
	AND c.purpose IN ('subscription', 'upgrade', 'invoice') ORDER BY c.created_at DESC LIMIT 1) p ON true`

// seatColumns are the columns of a subscriptions row s that its seat limit
// depends on (kudos.SeatLimit), in the order of seatFields: the plan, the
// status, the extra seats and the change scheduled for the renewal (issue
// 38: once scheduled, the team is held to the smaller of the two).
const seatColumns = `s.plan, s.show_status, s.extra_seats, s.scheduled_plan, s.scheduled_extra_seats`

// seatFields are the scan targets of seatColumns.
func seatFields(sub *kudos.Subscription) []any {
	return []any{&sub.Plan, &sub.ShowStatus, &sub.ExtraSeats, &sub.ScheduledPlan, &sub.ScheduledExtraSeats}
}

// seats counts an account's seats: members plus pending, unexpired
// invitations, against its subscription's limit (the smaller plan's while
// a plan checkout is open).
func seats(ctx context.Context, q querier, accountID uuid.UUID, now time.Time) (kudos.Seats, error) {
	var sub kudos.Subscription
	var paying kudos.Plan
	var payingExtras int
	var out kudos.Seats
	err := q.QueryRow(ctx, `SELECT `+seatColumns+`, `+payingPlan+`,
		(SELECT count(*) FROM memberships m WHERE m.account_id = s.account_id)
		+ (SELECT count(*) FROM invitations i WHERE i.account_id = s.account_id AND i.status = 'pending' AND i.expires_at > $2)
		FROM subscriptions s`+payingCheckout+` WHERE s.account_id = $1`, accountID, now).
		Scan(append(seatFields(&sub), &paying, &payingExtras, &out.Used)...)
	if err != nil {
		return kudos.Seats{}, notFound(err)
	}
	out.Limit = kudos.SeatLimitWhilePaying(sub, paying, payingExtras)
	return out, nil
}

// Seats returns the account's seats, used and allowed.
func (db *DB) Seats(ctx context.Context, accountID uuid.UUID) (kudos.Seats, error) {
	return seats(ctx, db.Pool, accountID, db.Now())
}

// MemberCount is how many members the account has (pending invitations
// not counted).
func (db *DB) MemberCount(ctx context.Context, accountID uuid.UUID) (int, error) {
	var n int
	err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM memberships WHERE account_id = $1`, accountID).Scan(&n)
	return n, wrapErr(err)
}

// Members returns the account's members, the owner first, then by the
// time they joined, with its seats.
func (db *DB) Members(ctx context.Context, accountID uuid.UUID) ([]kudos.Member, kudos.Seats, error) {
	rows, err := db.Pool.Query(ctx, `SELECT u.id, u.email, u.firstname, u.lastname, m.role, m.created_at
		FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1
		ORDER BY (m.role = 'owner') DESC, m.created_at, u.email`, accountID)
	if err != nil {
		return nil, kudos.Seats{}, wrapErr(err)
	}
	members, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kudos.Member, error) {
		var m kudos.Member
		err := r.Scan(&m.UserID, &m.Email, &m.Firstname, &m.Lastname, &m.Role, &m.JoinedAt)
		return m, err
	})
	if err != nil {
		return nil, kudos.Seats{}, wrapErr(err)
	}
	s, err := db.Seats(ctx, accountID)
	return members, s, err
}

// Memberships returns the accounts userID belongs to, by name, the last
// used one marked.
func (db *DB) Memberships(ctx context.Context, userID uuid.UUID) ([]kudos.Membership, error) {
	rows, err := db.Pool.Query(ctx, `SELECT a.id, a.name, m.role, a.img_url, s.plan, coalesce(u.last_account_id = a.id, false)
		FROM memberships m JOIN accounts a ON a.id = m.account_id JOIN subscriptions s ON s.account_id = a.id
		JOIN users u ON u.id = m.user_id
		WHERE m.user_id = $1 ORDER BY lower(a.name), a.id`, userID)
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kudos.Membership, error) {
		var m kudos.Membership
		err := r.Scan(&m.AccountID, &m.Name, &m.Role, &m.ImgURL, &m.Plan, &m.LastUsed)
		return m, err
	})
	return out, wrapErr(err)
}

// memberRole is userID's role in the account ("" for none).
func memberRole(ctx context.Context, tx pgx.Tx, accountID, userID uuid.UUID) (kudos.Role, error) {
	var role kudos.Role
	err := tx.QueryRow(ctx, `SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2`, accountID, userID).Scan(&role)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return role, wrapErr(err)
}

// teamFacts are the people of a team change: the actor's and the target's
// roles and addresses.
type teamFacts struct {
	accountName             string
	actorRole, targetRole   kudos.Role
	actorEmail, targetEmail string
}

// teamChange locks the account and reads the roles of actor and target
// (a target who is not a member is ENotFound).
func teamChange(ctx context.Context, tx pgx.Tx, accountID, actorID, targetID uuid.UUID) (teamFacts, error) {
	var f teamFacts
	var err error
	if f.accountName, err = lockAccount(ctx, tx, accountID); err != nil {
		return f, err
	}
	err = tx.QueryRow(ctx, `SELECT coalesce(max(m.role) FILTER (WHERE m.user_id = $2), ''), coalesce(max(u.email) FILTER (WHERE m.user_id = $2), ''),
		coalesce(max(m.role) FILTER (WHERE m.user_id = $3), ''), coalesce(max(u.email) FILTER (WHERE m.user_id = $3), '')
		FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1 AND m.user_id IN ($2, $3)`,
		accountID, actorID, targetID).Scan(&f.actorRole, &f.actorEmail, &f.targetRole, &f.targetEmail)
	if err != nil {
		return f, wrapErr(err)
	}
	if f.targetRole == "" {
		return f, kudos.Errorf(kudos.ENotFound, "this user is not a member of the account")
	}
	return f, nil
}

// teamEvent appends a membership event to the account's timeline.
func teamEvent(ctx context.Context, tx pgx.Tx, ev kudos.BillingEvent) error {
	_, err := AppendBillingEvent(ctx, tx, ev)
	return err
}

// ChangeRole gives the member targetID of the account role (admin or
// member), as actorID asked: owners and admins change the roles of others
// but the owner (ownership moves only by TransferOwnership). A member
// demoted below admin no longer invites: the invitations they sent are
// revoked with the change (out tells their workflows).
func (db *DB) ChangeRole(ctx context.Context, accountID, actorID, targetID uuid.UUID, role kudos.Role, out TeamOutbox) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		f, err := teamChange(ctx, tx, accountID, actorID, targetID)
		if err != nil {
			return err
		}
		if !kudos.ManagesMember(f.actorRole, f.targetRole, actorID == targetID) {
			return kudos.Errorf(kudos.EForbidden, "you may not change the role of this member")
		}
		if f.targetRole == role {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE memberships SET role = $3 WHERE account_id = $1 AND user_id = $2`, accountID, targetID, role); err != nil {
			return wrapErr(err)
		}
		if err := teamEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventMemberRoleChanged,
			MemberEmail: f.targetEmail, Role: role, ActorEmail: f.actorEmail,
			Key: "member_role_changed:" + targetID.String() + ":" + micros(now)}); err != nil {
			return err
		}
		if role.AtLeast(kudos.RoleAdmin) {
			return nil
		}
		return revokeInvitationsBy(ctx, tx, accountID, targetID, f.actorEmail, now, out)
	})
}

// RemoveMember ends targetID's membership of the account, as actorID
// asked: a member leaving (anyone but the owner), or an owner or admin
// removing someone else but the owner. Their access ends with it: every
// request reads the membership from Postgres; so do the invitations they
// sent (revoked; out tells their workflows).
func (db *DB) RemoveMember(ctx context.Context, accountID, actorID, targetID uuid.UUID, out TeamOutbox) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		f, err := teamChange(ctx, tx, accountID, actorID, targetID)
		if err != nil {
			return err
		}
		self := actorID == targetID
		ev := kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventMemberRemoved, MemberEmail: f.targetEmail,
			Role: f.targetRole, ActorEmail: f.actorEmail}
		switch {
		case self && !kudos.MayLeave(f.targetRole):
			return kudos.Errorf(kudos.EConflict, "the owner cannot leave the account: transfer the ownership first")
		case self:
			ev.Type, ev.ActorEmail = kudos.EventMemberLeft, ""
		case !kudos.ManagesMember(f.actorRole, f.targetRole, false):
			return kudos.Errorf(kudos.EForbidden, "you may not remove this member")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM memberships WHERE account_id = $1 AND user_id = $2`, accountID, targetID); err != nil {
			return wrapErr(err)
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET last_account_id = NULL WHERE id = $1 AND last_account_id = $2`, targetID, accountID); err != nil {
			return wrapErr(err)
		}
		ev.Key = string(ev.Type) + ":" + targetID.String() + ":" + micros(now)
		if err := teamEvent(ctx, tx, ev); err != nil {
			return err
		}
		return revokeInvitationsBy(ctx, tx, accountID, targetID, f.actorEmail, now, out)
	})
}

// OwnershipTransfer is a transfer of an account's ownership: the owner
// becomes an admin, NewOwner (a member) the owner, and both are mailed.
type OwnershipTransfer struct {
	AccountID, Owner, NewOwner uuid.UUID
	Outbox                     TeamOutbox
}

// TransferOwnership moves the account's ownership in one transaction (the
// caller has re-authenticated the owner); the old owner's exports of the
// account, preparing or ready, are void with it.
func (db *DB) TransferOwnership(ctx context.Context, t OwnershipTransfer) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		f, err := teamChange(ctx, tx, t.AccountID, t.Owner, t.NewOwner)
		if kudos.ErrorCode(err) == kudos.ENotFound {
			return kudos.FieldErrors{"user_id": kudos.FInvalidValue}.Err()
		} else if err != nil {
			return err
		}
		switch {
		case f.actorRole != kudos.RoleOwner:
			return kudos.Errorf(kudos.EForbidden, "only the owner may transfer the ownership")
		case t.Owner == t.NewOwner:
			return kudos.FieldErrors{"user_id": kudos.FInvalidValue}.Err()
		}
		// A member whose own deletion is scheduled would leave the account
		// without an owner when it is done (issue 35): they cannot take it.
		// FOR SHARE holds off ScheduleUserDeletion (FOR UPDATE of the same
		// row) until this commits, so it then sees them as the owner: the
		// two cannot both pass and leave an owner being deleted.
		var leaving bool
		if err := tx.QueryRow(ctx, `SELECT deletion_at IS NOT NULL FROM users WHERE id = $1 FOR SHARE`, t.NewOwner).Scan(&leaving); err != nil {
			return wrapErr(err)
		}
		if leaving {
			return kudos.Errorf(kudos.EConflict, "this member has scheduled the deletion of their user: the ownership cannot go to them")
		}
		// The old owner steps down first: one owner at any moment.
		for _, step := range []struct {
			user uuid.UUID
			role kudos.Role
		}{{t.Owner, kudos.RoleAdmin}, {t.NewOwner, kudos.RoleOwner}} {
			if _, err := tx.Exec(ctx, `UPDATE memberships SET role = $3 WHERE account_id = $1 AND user_id = $2`,
				t.AccountID, step.user, step.role); err != nil {
				return wrapErr(err)
			}
		}
		// The account's exports the old owner asked for stop being theirs
		// (issue 35): void, never built, mailed or served to them.
		if err := voidExportsOf(ctx, tx, t.AccountID, t.Owner); err != nil {
			return err
		}
		key := t.AccountID.String() + ":" + micros(now)
		if err := teamEvent(ctx, tx, kudos.BillingEvent{AccountID: t.AccountID, At: now, Type: kudos.EventOwnershipTransferred,
			MemberEmail: f.targetEmail, Role: kudos.RoleOwner, ActorEmail: f.actorEmail, Key: "ownership_transferred:" + key}); err != nil {
			return err
		}
		return ownershipMails(ctx, tx, t, f, key)
	})
}

// ownershipMails queues the mails of a transfer: the former owner is told
// who owns the account now, the new owner that it is theirs.
func ownershipMails(ctx context.Context, tx pgx.Tx, t OwnershipTransfer, f teamFacts, key string) error {
	oldOwner, err := mailPerson(ctx, tx, t.Owner)
	if err != nil {
		return err
	}
	newOwner, err := mailPerson(ctx, tx, t.NewOwner)
	if err != nil {
		return err
	}
	mails := []kudos.MailRequest{
		{Key: "ownership_transferred:" + key, Purpose: kudos.MailOwnershipTransferred, To: oldOwner.email,
			Language: oldOwner.language, Name: oldOwner.firstname,
			Team: &kudos.MailTeam{AccountID: t.AccountID, AccountName: f.accountName, Member: newOwner.display(), Role: kudos.RoleAdmin}},
		{Key: "ownership_received:" + key, Purpose: kudos.MailOwnershipReceived, To: newOwner.email,
			Language: newOwner.language, Name: newOwner.firstname,
			Team: &kudos.MailTeam{AccountID: t.AccountID, AccountName: f.accountName, Member: oldOwner.display(), Role: kudos.RoleOwner}},
	}
	for _, m := range mails {
		if err := insertOutbox(ctx, tx, t.Outbox.Mail(m)); err != nil {
			return err
		}
	}
	return nil
}

// person is a user as a mail addresses or names them.
type person struct{ email, firstname, lastname, language string }

// display is how a mail names the person.
func (p person) display() string { return kudos.DisplayName(p.firstname, p.lastname, p.email) }

// mailPerson reads a user for a mail.
func mailPerson(ctx context.Context, tx pgx.Tx, userID uuid.UUID) (person, error) {
	var p person
	err := tx.QueryRow(ctx, `SELECT email, firstname, lastname, preferred_language FROM users WHERE id = $1`, userID).
		Scan(&p.email, &p.firstname, &p.lastname, &p.language)
	return p, notFound(err)
}
