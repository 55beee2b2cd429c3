package kudos

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// BillingEventType is what happened to an account's money or plan: one row
// of its billing timeline (issue 14).
type BillingEventType string

// The billing event types. The reminder and retry types are written by the
// dunning and reminder work; every other one by the store function that
// makes the state change it records, in the same transaction.
const (
	EventTrialStarted          BillingEventType = "trial_started"
	EventTrialReminderSent     BillingEventType = "trial_reminder_sent"
	EventTrialExpired          BillingEventType = "trial_expired"
	EventCheckoutOpened        BillingEventType = "checkout_opened"
	EventCheckoutCancelled     BillingEventType = "checkout_cancelled"
	EventCheckoutExpired       BillingEventType = "checkout_expired"
	EventPaymentSucceeded      BillingEventType = "payment_succeeded"
	EventPaymentFailed         BillingEventType = "payment_failed"
	EventPlanStarted           BillingEventType = "plan_started"
	EventPlanUpgraded          BillingEventType = "plan_upgraded"
	EventAutoRenewalStopped    BillingEventType = "auto_renewal_stopped"
	EventAutoRenewalRestarted  BillingEventType = "auto_renewal_restarted"
	EventRenewalReminderSent   BillingEventType = "renewal_reminder_sent"
	EventRenewalSucceeded      BillingEventType = "renewal_succeeded"
	EventRenewalFailed         BillingEventType = "renewal_failed"
	EventPaymentRetryScheduled BillingEventType = "payment_retry_scheduled"
	EventPlanExpired           BillingEventType = "plan_expired"
	EventPaymentMethodAdded    BillingEventType = "payment_method_added"
	EventPaymentMethodRemoved  BillingEventType = "payment_method_removed"
	EventRefund                BillingEventType = "refund"
	EventCreditNoteIssued      BillingEventType = "credit_note_issued"

	// Membership events (issue 26): shown to the owner and the admins,
	// who see none of the money events above unless they own the account.

	EventMemberInvited        BillingEventType = "member_invited"
	EventInvitationRevoked    BillingEventType = "invitation_revoked"
	EventMemberJoined         BillingEventType = "member_joined"
	EventMemberRoleChanged    BillingEventType = "member_role_changed"
	EventMemberRemoved        BillingEventType = "member_removed"
	EventMemberLeft           BillingEventType = "member_left"
	EventOwnershipTransferred BillingEventType = "ownership_transferred"

	// Account deletion events (issue 28): shown to the owner and admins
	// like membership events.

	EventDeletionScheduled BillingEventType = "deletion_scheduled"
	EventDeletionCancelled BillingEventType = "deletion_cancelled"
	EventDeletionCompleted BillingEventType = "deletion_completed"

	// Two-factor events (issue 29): a member's second factor (data says
	// which: totp or passkey) and the owner's policy; shown to the owner
	// and admins like membership events.

	EventSecondFactorAdded   BillingEventType = "second_factor_added"
	EventSecondFactorRemoved BillingEventType = "second_factor_removed"
	EventMFAPolicyChanged    BillingEventType = "mfa_policy_changed"

	// EventVATIDChecked is the result of a VAT id's check (issue 30).
	EventVATIDChecked BillingEventType = "vat_id_checked"

	// Disputes and returned debits (issue 36): money the provider took
	// back after a payment succeeded.

	EventDisputeOpened   BillingEventType = "dispute_opened"
	EventDisputeWon      BillingEventType = "dispute_won"
	EventDisputeLost     BillingEventType = "dispute_lost"
	EventPaymentReturned BillingEventType = "payment_returned"

	// EventRefundFailed: a refund booked before failed at the provider
	// (the money never reached the customer, who is owed it still; its
	// credit note stands).
	EventRefundFailed BillingEventType = "refund_failed"
)

// TeamEventTypes are the membership and deletion events of the timeline
// (the ones admins see).
var TeamEventTypes = []BillingEventType{
	EventMemberInvited, EventInvitationRevoked, EventMemberJoined, EventMemberRoleChanged, EventMemberRemoved,
	EventMemberLeft, EventOwnershipTransferred, EventDeletionScheduled, EventDeletionCancelled, EventDeletionCompleted,
	EventSecondFactorAdded, EventSecondFactorRemoved, EventMFAPolicyChanged,
}

// BillingEventTypes lists every type, in the order of the issues (the
// migration's CHECK and api/openapi.yaml list the same).
var BillingEventTypes = []BillingEventType{
	EventTrialStarted, EventTrialReminderSent, EventTrialExpired, EventCheckoutOpened, EventCheckoutCancelled,
	EventCheckoutExpired, EventPaymentSucceeded, EventPaymentFailed, EventPlanStarted, EventPlanUpgraded,
	EventAutoRenewalStopped, EventAutoRenewalRestarted, EventRenewalReminderSent, EventRenewalSucceeded,
	EventRenewalFailed, EventPaymentRetryScheduled, EventPlanExpired, EventPaymentMethodAdded,
	EventPaymentMethodRemoved, EventRefund,
	EventMemberInvited, EventInvitationRevoked, EventMemberJoined, EventMemberRoleChanged, EventMemberRemoved,
	EventMemberLeft, EventOwnershipTransferred,
	EventDeletionScheduled, EventDeletionCancelled, EventDeletionCompleted,
	EventCreditNoteIssued,
	EventSecondFactorAdded, EventSecondFactorRemoved, EventMFAPolicyChanged, EventVATIDChecked,
	EventDisputeOpened, EventDisputeWon, EventDisputeLost, EventPaymentReturned, EventRefundFailed,
}

// BillingEvent is one row of the append-only billing_events table.
type BillingEvent struct {
	// ID is given by the store.
	ID        uuid.UUID
	AccountID uuid.UUID
	// At is when it happened; the store's clock when zero.
	At   time.Time
	Type BillingEventType
	// Plan is the plan concerned ("" when none).
	Plan Plan
	// Amount is in minor units of Currency; payment events carry it (nil
	// when none).
	Amount   *int64
	Currency string
	// InvoiceID is the invoice concerned (nil when none).
	InvoiceID *uuid.UUID
	// Key makes the event idempotent: an event whose key is stored already
	// is not written again (a retried activity). Derive it from what the
	// event is about, e.g. "payment_succeeded:<invoice id>".
	Key string
	// Seq orders events of the same At (the order they were written).
	Seq int64
	// MemberEmail, Role and ActorEmail are a membership event's: the
	// member (or invited address) concerned, their role, and who acted
	// ("" when the member acted themselves).
	MemberEmail string
	Role        Role
	ActorEmail  string
	// Factor is a second factor's event's: totp or passkey ("" for the
	// others).
	Factor string
}

// Validate checks what the store relies on.
func (e BillingEvent) Validate() error {
	if e.AccountID == uuid.Nil || e.Key == "" {
		return Errorf(EInvalid, "a billing event needs an account and a key")
	}
	for _, t := range BillingEventTypes {
		if t == e.Type {
			return nil
		}
	}
	return Errorf(EInvalid, "unknown billing event type %q", e.Type)
}

// TimelineCursor is a position in an account's timeline, newest first: the
// next page holds the events before it. Ties on At are broken by Seq.
type TimelineCursor struct {
	At  time.Time
	Seq int64
}

// CursorAfter is the cursor that continues after event e.
func CursorAfter(e BillingEvent) TimelineCursor { return TimelineCursor{At: e.At, Seq: e.Seq} }

// String encodes the cursor opaquely (URL-safe).
func (c TimelineCursor) String() string {
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d.%d", c.At.UnixMicro(), c.Seq)))
}

// ParseTimelineCursor decodes a cursor made by String; anything else is
// EInvalid (field "before").
func ParseTimelineCursor(s string) (TimelineCursor, error) {
	bad := FieldErrors{"before": FInvalidValue}.Err()
	if s == "" || len(s) > 64 {
		return TimelineCursor{}, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return TimelineCursor{}, bad
	}
	at, seq, ok := strings.Cut(string(raw), ".")
	if !ok {
		return TimelineCursor{}, bad
	}
	micros, err1 := strconv.ParseInt(at, 10, 64)
	n, err2 := strconv.ParseInt(seq, 10, 64)
	if err1 != nil || err2 != nil || n < 0 || micros < 0 {
		return TimelineCursor{}, bad
	}
	c := TimelineCursor{At: time.UnixMicro(micros).UTC(), Seq: n}
	if c.At.Year() > 9999 {
		return TimelineCursor{}, bad
	}
	return c, nil
}
