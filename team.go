package kudos

import (
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Role is what a member may do in an account (issue 26).
type Role string

// The roles. An account has exactly one owner.
const (
	// RoleOwner: billing, plan, the team, deletion; exactly one per account.
	RoleOwner Role = "owner"
	// RoleAdmin: the team and the account's settings, not billing nor
	// ownership.
	RoleAdmin Role = "admin"
	// RoleMember: the product areas, personal details and preferences; the
	// plan's status read-only.
	RoleMember Role = "member"
)

// roleRank orders the roles: a role may do what every lower one may.
var roleRank = map[Role]int{RoleMember: 1, RoleAdmin: 2, RoleOwner: 3}

// Valid reports whether r is one of the roles.
func (r Role) Valid() bool { return roleRank[r] > 0 }

// AtLeast reports whether r may do what min may.
func (r Role) AtLeast(min Role) bool { return r.Valid() && roleRank[r] >= roleRank[min] }

// Invitable reports whether r may be given by an invitation or a role
// change: ownership only moves by a transfer.
func (r Role) Invitable() bool { return r == RoleAdmin || r == RoleMember }

// ManagesMember reports whether a member of role actor may change the role
// of, or remove, another member of role target: owners and admins manage
// everyone but the owner. Oneself is never managed this way (leaving is
// its own rule: see MayLeave).
func ManagesMember(actor, target Role, self bool) bool {
	return !self && actor.AtLeast(RoleAdmin) && target != RoleOwner && target.Valid()
}

// MayLeave reports whether a member of role r may leave the account: the
// owner may not (ownership must be transferred first).
func MayLeave(r Role) bool { return r.Valid() && r != RoleOwner }

// planSeats are the users each plan allows (SPEC §9); a trial allows the
// Team plan's.
var planSeats = map[Plan]int{PlanTrial: 10, PlanStarter: 1, PlanPro: 2, PlanTeam: 10}

// MaxTeamSeats is the most seats a Team plan may have, its own included
// (issue 38): a bound on a mistyped count, not a commercial limit.
const MaxTeamSeats = 1000

// expiredSeats are the seats of an expired trial or plan: the owner's.
// Nobody is removed when a plan expires, but nobody joins until a plan that
// fits is bought.
const expiredSeats = 1

// PlanSeats is how many users plan allows (0 for an unknown plan).
func PlanSeats(plan Plan) int { return planSeats[plan] }

// SeatLimit is how many users a subscription allows now: its plan's, or
// only the owner's once the trial or plan has expired.
//
// A Team plan's extra seats count (issue 38); once a change is scheduled
// for the renewal (a lower plan, fewer seats), the limit is the smaller of
// now's and the renewal's, so that the team never outgrows what it renews.
func SeatLimit(s Subscription) int {
	if s.ShowStatus == StatusTrialExpired || s.ShowStatus == StatusPlanExpired {
		return expiredSeats
	}
	limit := PlanSeats(s.Plan) + teamExtras(s.Plan, s.ExtraSeats)
	if s.ScheduledPlan != nil || s.ScheduledExtraSeats != nil {
		next, extras := s.Plan, s.ExtraSeats
		if s.ScheduledPlan != nil {
			next = *s.ScheduledPlan
		}
		if s.ScheduledExtraSeats != nil {
			extras = *s.ScheduledExtraSeats
		}
		limit = min(limit, PlanSeats(next)+teamExtras(next, extras))
	}
	return limit
}

// teamExtras are the extra seats plan has: only Team buys them.
func teamExtras(plan Plan, extras int) int {
	if plan != PlanTeam {
		return 0
	}
	return extras
}

// SeatLimitWhilePaying is how many users a subscription allows while a
// checkout for plan paying is open ("": none), whose invoice bills
// payingExtras extra seats: the smaller of SeatLimit and what that
// payment buys, so that nobody joins a team the plan being paid for cannot
// hold (a Starter payment is never applied to a team of two).
func SeatLimitWhilePaying(s Subscription, paying Plan, payingExtras int) int {
	limit := SeatLimit(s)
	if n := PlanSeats(paying); n > 0 {
		limit = min(limit, n+teamExtras(paying, payingExtras))
	}
	return limit
}

// Seats are an account's seats: used counts the members and the pending,
// unexpired invitations.
type Seats struct {
	Used  int `json:"used"`
	Limit int `json:"limit"`
}

// Free reports how many more seats may be taken.
func (s Seats) Free() int { return max(s.Limit-s.Used, 0) }

// SeatLimitError is the refusal of a change that needs seats the account
// does not have (409 seat_limit).
func SeatLimitError(message string) *Error {
	return &Error{Code: ESeatLimit, Message: message}
}

// TeamFullError refuses an invitation or its acceptance on a full team.
func TeamFullError(s Seats) *Error {
	return SeatLimitError(fmt.Sprintf("all %d seats are taken (%d used): upgrade the plan or remove members first", s.Limit, s.Used))
}

// PlanTooSmallError refuses buying plan with extraSeats when the account
// uses more seats than they allow: "remove N members first" (members and
// pending invitations both take seats).
func PlanTooSmallError(plan Plan, extraSeats, used int) *Error {
	allows := PlanSeats(plan) + teamExtras(plan, extraSeats)
	n := used - allows
	noun := "members"
	if n == 1 {
		noun = "member"
	}
	what := fmt.Sprintf("the %s plan", plan)
	if teamExtras(plan, extraSeats) > 0 {
		what = fmt.Sprintf("the %s plan with %d extra seats", plan, extraSeats)
	}
	return SeatLimitError(fmt.Sprintf("remove %d %s first: %s allows %d users and %d seats are used (members and pending invitations)",
		n, noun, what, allows, used))
}

// CheckPlanFits refuses (seat_limit) buying plan with extraSeats (those
// the invoice being paid bills: a due invoice of a Team plan with its
// seats) for an account using used seats.
func CheckPlanFits(plan Plan, extraSeats, used int) error {
	if used > PlanSeats(plan)+teamExtras(plan, extraSeats) {
		return PlanTooSmallError(plan, extraSeats, used)
	}
	return nil
}

// Member is one member of an account, as the members list shows them.
type Member struct {
	UserID    uuid.UUID `json:"user_id"`
	Email     string    `json:"email"`
	Firstname string    `json:"firstname"`
	Lastname  string    `json:"lastname"`
	Role      Role      `json:"role"`
	JoinedAt  time.Time `json:"joined_at"`
}

// Membership is one account a user belongs to (GET /v1/accounts).
type Membership struct {
	AccountID uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	Role      Role      `json:"role"`
	// ImgURL is the account's logo reference; LogoURL (filled in by the
	// api) where a public one is served from.
	ImgURL  string `json:"img_url"`
	LogoURL string `json:"logo_url"`
	Plan    Plan   `json:"plan"`
	// LastUsed marks the account the user opened last (sign-in opens it).
	LastUsed bool `json:"last_used"`
}

// InvitationStatus is where an invitation stands.
type InvitationStatus string

// Invitation statuses: pending until accepted, revoked or expired.
const (
	InvitationPending  InvitationStatus = "pending"
	InvitationAccepted InvitationStatus = "accepted"
	InvitationRevoked  InvitationStatus = "revoked"
	InvitationExpired  InvitationStatus = "expired"
)

// Invitation is an invitation to join an account. Its token is never kept:
// only its hash (see auth.MailTokens).
type Invitation struct {
	ID        uuid.UUID        `json:"id"`
	AccountID uuid.UUID        `json:"-"`
	Email     string           `json:"email"`
	Role      Role             `json:"role"`
	Status    InvitationStatus `json:"-"`
	CreatedAt time.Time        `json:"created_at"`
	ExpiresAt time.Time        `json:"expires_at"`
	// InvitedBy names the member who invited (their name, else their
	// e-mail; "" when they are gone).
	InvitedBy string `json:"invited_by"`
}

// InvitationPreview is what the accept page shows of an invitation
// (GET /v1/invitations/{token}).
type InvitationPreview struct {
	AccountName string    `json:"account_name"`
	Inviter     string    `json:"inviter"`
	Email       string    `json:"email"`
	Role        Role      `json:"role"`
	ExpiresAt   time.Time `json:"expires_at"`
}

// InvitationTiming is how long an invitation stays valid
// (KUDOS_INVITATION_TTL) and when its reminder goes out after it was sent
// (KUDOS_INVITATION_REMINDER; none when it is not before the expiry).
type InvitationTiming struct {
	TTL      time.Duration
	Reminder time.Duration
}

// DisplayName is how a mail or a page names a person: "first last", or the
// e-mail when a part of the name is missing or 'Unknown' (SPEC §2).
func DisplayName(first, last, email string) string {
	if first == "" || last == "" || first == "Unknown" || last == "Unknown" {
		return email
	}
	return first + " " + last
}
