package store

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
)

// NewInvitation is an invitation to store: the api derives the token from
// Key and gives its hash; the workflow that Outbox starts mails it.
type NewInvitation struct {
	Invitation kudos.Invitation
	InvitedBy  uuid.UUID
	TokenHash  []byte
	Key        string
	Outbox     TeamOutbox
}

// invitationGone is the answer for an invitation that does not exist, or
// no longer counts (accepted, revoked, expired): the same for all.
func invitationGone() *kudos.Error {
	return kudos.Errorf(kudos.ENotFound, "this invitation is invalid or has expired")
}

// CreateInvitation stores a pending invitation, with the timeline's event
// and the start of its workflow, once the account has a free seat for it
// (seat_limit otherwise). An address that is already a member, or already
// has a pending invitation, is EConflict.
func (db *DB) CreateInvitation(ctx context.Context, in NewInvitation) (*kudos.Invitation, error) {
	now := db.Now()
	inv := in.Invitation
	inv.ID, inv.Email, inv.Status, inv.CreatedAt = uuid.New(), kudos.NormalizeEmail(inv.Email), kudos.InvitationPending, now
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := lockAccount(ctx, tx, inv.AccountID); err != nil {
			return err
		}
		var member bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
			WHERE m.account_id = $1 AND lower(u.email) = $2)`, inv.AccountID, inv.Email).Scan(&member); err != nil {
			return wrapErr(err)
		}
		if member {
			return &kudos.Error{Code: kudos.EConflict, Message: "this address is already a member of the account",
				Fields: map[string]string{"email": "already_member"}}
		}
		// An invitation past its expiry whose workflow has not said so yet
		// makes way for the new one.
		if _, err := tx.Exec(ctx, `UPDATE invitations SET status = 'expired', ended_at = $3
			WHERE account_id = $1 AND lower(email) = $2 AND status = 'pending' AND expires_at <= $3`, inv.AccountID, inv.Email, now); err != nil {
			return wrapErr(err)
		}
		s, err := seats(ctx, tx, inv.AccountID, now)
		if err != nil {
			return err
		}
		if s.Free() < 1 {
			return kudos.TeamFullError(s)
		}
		_, err = tx.Exec(ctx, `INSERT INTO invitations (id, account_id, email, role, token_hash, invited_by, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, inv.ID, inv.AccountID, inv.Email, inv.Role, in.TokenHash, in.InvitedBy, now, inv.ExpiresAt)
		if isUniqueViolation(err) {
			return &kudos.Error{Code: kudos.EConflict, Message: "this address has a pending invitation already: resend it instead",
				Fields: map[string]string{"email": "already_invited"}}
		} else if err != nil {
			return wrapErr(err)
		}
		actor, err := mailPerson(ctx, tx, in.InvitedBy)
		if err != nil {
			return err
		}
		inv.InvitedBy = actor.display()
		if err := teamEvent(ctx, tx, kudos.BillingEvent{AccountID: inv.AccountID, At: now, Type: kudos.EventMemberInvited,
			MemberEmail: inv.Email, Role: inv.Role, ActorEmail: actor.email, Key: "member_invited:" + inv.ID.String()}); err != nil {
			return err
		}
		return insertOutbox(ctx, tx, in.Outbox.InvitationStart(inv, in.Key))
	})
	if err != nil {
		return nil, err
	}
	return &inv, nil
}

// invitationColumns are the columns scanned by scanInvitation, of an
// invitations row i (and the inviter, a left-joined users row w).
const invitationColumns = `i.id, i.account_id, i.email, i.role, i.status, i.created_at, i.expires_at,
	coalesce(w.firstname, ''), coalesce(w.lastname, ''), coalesce(w.email, '')`

func scanInvitation(row pgx.Row) (kudos.Invitation, error) {
	var inv kudos.Invitation
	var first, last, email string
	err := row.Scan(&inv.ID, &inv.AccountID, &inv.Email, &inv.Role, &inv.Status, &inv.CreatedAt, &inv.ExpiresAt, &first, &last, &email)
	if email != "" {
		inv.InvitedBy = kudos.DisplayName(first, last, email)
	}
	return inv, err
}

// PendingInvitations returns the account's pending, unexpired invitations,
// newest first.
func (db *DB) PendingInvitations(ctx context.Context, accountID uuid.UUID) ([]kudos.Invitation, error) {
	rows, err := db.Pool.Query(ctx, `SELECT `+invitationColumns+` FROM invitations i LEFT JOIN users w ON w.id = i.invited_by
		WHERE i.account_id = $1 AND i.status = 'pending' AND i.expires_at > $2 ORDER BY i.created_at DESC, i.id`, accountID, db.Now())
	if err != nil {
		return nil, wrapErr(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kudos.Invitation, error) { return scanInvitation(r) })
	return out, wrapErr(err)
}

// liveInvitation reads and locks the pending, unexpired invitation that
// where selects (ENotFound otherwise).
func liveInvitation(ctx context.Context, tx pgx.Tx, now time.Time, where string, args ...any) (kudos.Invitation, error) {
	args = append(args, now)
	inv, err := scanInvitation(tx.QueryRow(ctx, `SELECT `+invitationColumns+` FROM invitations i LEFT JOIN users w ON w.id = i.invited_by
		WHERE `+where+` AND i.status = 'pending' AND i.expires_at > $`+strconv.Itoa(len(args))+` FOR UPDATE OF i`, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		return inv, invitationGone()
	}
	return inv, wrapErr(err)
}

// ResendInvitation renews a pending invitation of the account: a new
// token (hash, derived from key) valid until expiresAt, mailed by its
// workflow; a nil tokenHash keeps the link (the api drops the mail: the
// workflow finds key is not the link's and mails nothing). It needs the
// seat it holds to still fit the account's limit (seat_limit: the plan
// expired or changed meanwhile).
func (db *DB) ResendInvitation(ctx context.Context, accountID, id uuid.UUID, tokenHash []byte, key string, expiresAt time.Time,
	out TeamOutbox) (*kudos.Invitation, error) {
	now := db.Now()
	var inv kudos.Invitation
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := lockAccount(ctx, tx, accountID); err != nil {
			return err
		}
		var err error
		if inv, err = liveInvitation(ctx, tx, now, `i.id = $1 AND i.account_id = $2`, id, accountID); err != nil {
			return err
		}
		s, err := seats(ctx, tx, accountID, now)
		if err != nil {
			return err
		}
		if s.Used > s.Limit {
			return kudos.TeamFullError(s)
		}
		if _, err := tx.Exec(ctx, `UPDATE invitations SET token_hash = coalesce($2, token_hash), expires_at = $3 WHERE id = $1`, id, tokenHash, expiresAt); err != nil {
			return wrapErr(err)
		}
		inv.ExpiresAt = expiresAt
		return insertOutbox(ctx, tx, out.InvitationUpdate(id, InvitationChange{Kind: InvitationResent, Key: key, ExpiresAt: expiresAt}))
	})
	if err != nil {
		return nil, err
	}
	return &inv, nil
}

// RevokeInvitation ends a pending invitation of the account (its link
// stops working at once) and tells its workflow, as actorID asked.
func (db *DB) RevokeInvitation(ctx context.Context, accountID, id, actorID uuid.UUID, out TeamOutbox) error {
	now := db.Now()
	return db.inTx(ctx, func(tx pgx.Tx) error {
		inv, err := liveInvitation(ctx, tx, now, `i.id = $1 AND i.account_id = $2`, id, accountID)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE invitations SET status = 'revoked', ended_at = $2 WHERE id = $1`, id, now); err != nil {
			return wrapErr(err)
		}
		actor, err := mailPerson(ctx, tx, actorID)
		if err != nil {
			return err
		}
		if err := teamEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventInvitationRevoked,
			MemberEmail: inv.Email, Role: inv.Role, ActorEmail: actor.email, Key: "invitation_revoked:" + id.String()}); err != nil {
			return err
		}
		return insertOutbox(ctx, tx, out.InvitationUpdate(id, InvitationChange{Kind: InvitationRevoked}))
	})
}

// revokeInvitationsBy ends the pending invitations that inviterID sent to
// the account (issue 35): an invitation carries its inviter's right to
// invite, which ends when they are removed, leave or are demoted below
// admin. Each is revoked as RevokeInvitation does, actorEmail being who
// made the change.
func revokeInvitationsBy(ctx context.Context, tx pgx.Tx, accountID, inviterID uuid.UUID, actorEmail string, now time.Time, out TeamOutbox) error {
	rows, err := tx.Query(ctx, `UPDATE invitations SET status = 'revoked', ended_at = $3
		WHERE account_id = $1 AND invited_by = $2 AND status = 'pending' RETURNING id, email, role`, accountID, inviterID, now)
	if err != nil {
		return wrapErr(err)
	}
	type revoked struct {
		id    uuid.UUID
		email string
		role  kudos.Role
	}
	ended, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (revoked, error) {
		var v revoked
		return v, r.Scan(&v.id, &v.email, &v.role)
	})
	if err != nil {
		return wrapErr(err)
	}
	for _, inv := range ended {
		if err := teamEvent(ctx, tx, kudos.BillingEvent{AccountID: accountID, At: now, Type: kudos.EventInvitationRevoked,
			MemberEmail: inv.email, Role: inv.role, ActorEmail: actorEmail, Key: "invitation_revoked:" + inv.id.String()}); err != nil {
			return err
		}
		if err := insertOutbox(ctx, tx, out.InvitationUpdate(inv.id, InvitationChange{Kind: InvitationRevoked})); err != nil {
			return err
		}
	}
	return nil
}

// inviterMayStill reports whether the member who sent the invitation may
// still invite (an admin or the owner of its account): checked again at
// acceptance, so that an inviter's right lost by any path (an erasure, a
// change that revoked nothing) ends their invitations too.
func inviterMayStill(ctx context.Context, tx pgx.Tx, invitationID uuid.UUID) (bool, error) {
	var role *kudos.Role
	if err := tx.QueryRow(ctx, `SELECT m.role FROM invitations i
		LEFT JOIN memberships m ON m.account_id = i.account_id AND m.user_id = i.invited_by WHERE i.id = $1`, invitationID).
		Scan(&role); err != nil {
		return false, wrapErr(err)
	}
	return role != nil && role.AtLeast(kudos.RoleAdmin), nil
}

// InvitationByToken returns what the accept page shows of the pending,
// unexpired invitation whose token has this hash (ENotFound otherwise).
func (db *DB) InvitationByToken(ctx context.Context, tokenHash []byte) (*kudos.InvitationPreview, error) {
	var p kudos.InvitationPreview
	var first, last, email string
	err := db.Pool.QueryRow(ctx, `SELECT a.name, coalesce(w.firstname, ''), coalesce(w.lastname, ''), coalesce(w.email, ''),
		i.email, i.role, i.expires_at
		FROM invitations i JOIN accounts a ON a.id = i.account_id LEFT JOIN users w ON w.id = i.invited_by
		WHERE i.token_hash = $1 AND i.status = 'pending' AND i.expires_at > $2`, tokenHash, db.Now()).
		Scan(&p.AccountName, &first, &last, &email, &p.Email, &p.Role, &p.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, invitationGone()
	} else if err != nil {
		return nil, wrapErr(err)
	}
	if email != "" {
		p.Inviter = kudos.DisplayName(first, last, email)
	}
	return &p, nil
}

// AcceptInvitation has userID accept the invitation whose token has this
// hash and returns its account: in one transaction, with the account
// locked, the membership is added if a seat is free (seat_limit
// otherwise), the invitation ends, the timeline records it, the inviter is
// mailed and the invitation's workflow told. The invitation must be
// addressed to the user's e-mail (invitation_email_mismatch otherwise). A
// user who is a member already just ends the invitation.
func (db *DB) AcceptInvitation(ctx context.Context, tokenHash []byte, userID uuid.UUID, out TeamOutbox) (uuid.UUID, error) {
	var accountID uuid.UUID
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		accountID, err = acceptInvitation(ctx, tx, tokenHash, userID, db.Now(), out)
		return err
	})
	return accountID, err
}

// acceptInvitation is AcceptInvitation inside tx.
func acceptInvitation(ctx context.Context, tx pgx.Tx, tokenHash []byte, userID uuid.UUID, now time.Time, out TeamOutbox) (uuid.UUID, error) {
	var accountID uuid.UUID
	if err := tx.QueryRow(ctx, `SELECT account_id FROM invitations WHERE token_hash = $1`, tokenHash).Scan(&accountID); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return uuid.Nil, invitationGone()
		}
		return uuid.Nil, wrapErr(err)
	}
	accountName, err := lockAccount(ctx, tx, accountID)
	if err != nil {
		return uuid.Nil, err
	}
	inv, err := liveInvitation(ctx, tx, now, `i.token_hash = $1`, tokenHash)
	if err != nil {
		return uuid.Nil, err
	}
	if may, err := inviterMayStill(ctx, tx, inv.ID); err != nil || !may {
		if err == nil {
			err = invitationGone()
		}
		return uuid.Nil, err
	}
	user, err := mailPerson(ctx, tx, userID)
	if err != nil {
		return uuid.Nil, err
	}
	if kudos.NormalizeEmail(user.email) != inv.Email {
		return uuid.Nil, kudos.Errorf(kudos.EInvitationEmailMismatch, "this invitation was sent to another e-mail address")
	}
	role, err := memberRole(ctx, tx, accountID, userID)
	if err != nil {
		return uuid.Nil, err
	}
	if role == "" {
		if err := join(ctx, tx, inv, userID, now); err != nil {
			return uuid.Nil, err
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE invitations SET status = 'accepted', accepted_by = $2, ended_at = $3 WHERE id = $1`, inv.ID, userID, now); err != nil {
		return uuid.Nil, wrapErr(err)
	}
	// The invitation's link reached the address: that confirms it, as an
	// activation link would (and the account opens at the next sign-in).
	if _, err := tx.Exec(ctx, `UPDATE users SET last_account_id = $2, activated = true WHERE id = $1`, userID, accountID); err != nil {
		return uuid.Nil, wrapErr(err)
	}
	if err := insertOutbox(ctx, tx, out.InvitationUpdate(inv.ID, InvitationChange{Kind: InvitationAccepted})); err != nil {
		return uuid.Nil, err
	}
	return accountID, acceptedMail(ctx, tx, inv, accountName, user, out)
}

// join adds userID to the invitation's account with its role, when a seat
// is free: the invitation's own seat counts as free (it becomes theirs),
// unless the limit dropped below the members meanwhile (a plan checkout
// opened for fewer seats counts: kudos.SeatLimitWhilePaying).
func join(ctx context.Context, tx pgx.Tx, inv kudos.Invitation, userID uuid.UUID, now time.Time) error {
	var members, payingExtras int
	var sub kudos.Subscription
	var paying kudos.Plan
	if err := tx.QueryRow(ctx, `SELECT `+seatColumns+`, `+payingPlan+`,
		(SELECT count(*) FROM memberships m WHERE m.account_id = s.account_id)
		FROM subscriptions s`+payingCheckout+` WHERE s.account_id = $1`, inv.AccountID).
		Scan(append(seatFields(&sub), &paying, &payingExtras, &members)...); err != nil {
		return notFound(err)
	}
	if limit := kudos.SeatLimitWhilePaying(sub, paying, payingExtras); members+1 > limit {
		return kudos.TeamFullError(kudos.Seats{Used: members, Limit: limit})
	}
	if _, err := tx.Exec(ctx, `INSERT INTO memberships (account_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)`,
		inv.AccountID, userID, inv.Role, now); err != nil {
		return wrapErr(err)
	}
	return teamEvent(ctx, tx, kudos.BillingEvent{AccountID: inv.AccountID, At: now, Type: kudos.EventMemberJoined,
		MemberEmail: inv.Email, Role: inv.Role, Key: "member_joined:" + inv.ID.String()})
}

// acceptedMail tells the inviter (while they still belong to the account)
// that the invitation was accepted.
func acceptedMail(ctx context.Context, tx pgx.Tx, inv kudos.Invitation, accountName string, member person, out TeamOutbox) error {
	var inviter person
	err := tx.QueryRow(ctx, `SELECT u.email, u.firstname, u.lastname, u.preferred_language FROM invitations i
		JOIN memberships m ON m.account_id = i.account_id AND m.user_id = i.invited_by JOIN users u ON u.id = i.invited_by
		WHERE i.id = $1`, inv.ID).Scan(&inviter.email, &inviter.firstname, &inviter.lastname, &inviter.language)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	} else if err != nil {
		return wrapErr(err)
	}
	return insertOutbox(ctx, tx, out.Mail(kudos.MailRequest{Key: "team_invitation_accepted:" + inv.ID.String(),
		Purpose: kudos.MailTeamInvitationAccepted, To: inviter.email, Language: inviter.language, Name: inviter.firstname,
		Team: &kudos.MailTeam{AccountID: inv.AccountID, AccountName: accountName, Member: member.display(), Role: inv.Role}}))
}

// InvitationMailFacts are what an invitation's mail says, read when it is
// sent: the invitation as it stands, its account and inviter.
type InvitationMailFacts struct {
	Invitation  kudos.Invitation
	TokenHash   []byte
	AccountName string
	// Language is the inviter's (the invitee's is not known).
	Language string
}

// InvitationMail returns the facts of the invitation's mail, or ENotFound
// once it is no longer pending or has expired (no mail then).
func (db *DB) InvitationMail(ctx context.Context, id uuid.UUID) (*InvitationMailFacts, error) {
	var f InvitationMailFacts
	var first, last, email string
	err := db.Pool.QueryRow(ctx, `SELECT i.id, i.account_id, i.email, i.role, i.status, i.created_at, i.expires_at,
		coalesce(w.firstname, ''), coalesce(w.lastname, ''), coalesce(w.email, ''), i.token_hash, a.name, coalesce(w.preferred_language, 'en')
		FROM invitations i JOIN accounts a ON a.id = i.account_id LEFT JOIN users w ON w.id = i.invited_by
		WHERE i.id = $1 AND i.status = 'pending' AND i.expires_at > $2`, id, db.Now()).Scan(
		&f.Invitation.ID, &f.Invitation.AccountID, &f.Invitation.Email, &f.Invitation.Role, &f.Invitation.Status,
		&f.Invitation.CreatedAt, &f.Invitation.ExpiresAt, &first, &last, &email, &f.TokenHash, &f.AccountName, &f.Language)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, invitationGone()
	} else if err != nil {
		return nil, wrapErr(err)
	}
	if email != "" {
		f.Invitation.InvitedBy = kudos.DisplayName(first, last, email)
	}
	return &f, nil
}

// ExpireInvitation marks the invitation expired when it is still pending
// and its expiry has passed. It returns the invitation's status and expiry
// after that: a pending one was renewed meanwhile (a resend not yet told to
// the workflow) and expires at the time returned.
func (db *DB) ExpireInvitation(ctx context.Context, id uuid.UUID) (kudos.InvitationStatus, time.Time, error) {
	var status kudos.InvitationStatus
	var expiresAt time.Time
	now := db.Now()
	err := db.Pool.QueryRow(ctx, `UPDATE invitations SET status = CASE WHEN status = 'pending' AND expires_at <= $2 THEN 'expired' ELSE status END,
		ended_at = CASE WHEN status = 'pending' AND expires_at <= $2 THEN $2 ELSE ended_at END
		WHERE id = $1 RETURNING status, expires_at`, id, now).Scan(&status, &expiresAt)
	return status, expiresAt, notFound(err)
}
