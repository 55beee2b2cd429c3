package workflows_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/workflows"
)

// invitationEnv runs the invitation workflow on the time-skipping test
// server against an invitation kept in memory: the mails it queues (at
// which instant, reminder or not, with which key) and its expiry, which a
// resend moves and ExpireInvitation honours as Postgres does.
type invitationEnv struct {
	*testsuite.TestWorkflowEnvironment
	t       *testing.T
	start   time.Time
	in      workflows.InvitationInput
	expires time.Time
	status  kudos.InvitationStatus
	mails   []sentInvitation
}

type sentInvitation struct {
	after    time.Duration
	reminder bool
	key      string
}

func newInvitationEnv(t *testing.T) *invitationEnv {
	var suite testsuite.WorkflowTestSuite
	e := &invitationEnv{TestWorkflowEnvironment: suite.NewTestWorkflowEnvironment(), t: t, status: kudos.InvitationPending}
	e.start = e.Now()
	e.expires = e.start.Add(7 * day)
	e.in = workflows.InvitationInput{InvitationID: uuid.New(), AccountID: uuid.New(), Key: "key-0", ExpiresAt: e.expires, Reminder: 5 * day}
	e.RegisterWorkflow(workflows.Invitation)
	e.RegisterActivityWithOptions(
		func(_ context.Context, in workflows.InvitationMailInput) (workflows.InvitationMailResult, error) {
			if e.status != kudos.InvitationPending {
				return workflows.InvitationMailResult{}, nil
			}
			e.mails = append(e.mails, sentInvitation{after: e.Now().Sub(e.start).Round(time.Hour), reminder: in.Reminder, key: in.Key})
			return workflows.InvitationMailResult{Queued: true}, nil
		}, activity.RegisterOptions{Name: workflows.ActivityQueueInvitationMail})
	e.RegisterActivityWithOptions(
		func(context.Context, workflows.InvitationRef) (workflows.InvitationExpiry, error) {
			if e.status == kudos.InvitationPending && !e.Now().Before(e.expires) {
				e.status = kudos.InvitationExpired
			}
			return workflows.InvitationExpiry{Status: e.status, ExpiresAt: e.expires}, nil
		}, activity.RegisterOptions{Name: workflows.ActivityExpireInvitation})
	return e
}

// at runs f after d on the workflow's clock.
func (e *invitationEnv) at(d time.Duration, f func()) { e.RegisterDelayedCallback(f, d) }

// update sends an update the way the dispatcher does, after Postgres
// changed: it must be accepted and complete.
func (e *invitationEnv) update(name string, args ...any) {
	e.UpdateWorkflow(name, uuid.NewString(), &testsuite.TestUpdateCallback{
		OnAccept: func() {},
		OnReject: func(err error) { e.t.Errorf("%s rejected: %v", name, err) },
		OnComplete: func(_ any, err error) {
			if err != nil {
				e.t.Errorf("%s failed: %v", name, err)
			}
		},
	}, args...)
}

// resend renews the invitation as the api does (new key and expiry in
// Postgres), then tells the workflow; deliver false leaves the update
// undelivered (the relay is late).
func (e *invitationEnv) resend(key string, deliver bool) {
	e.expires = e.Now().Add(7 * day)
	if deliver {
		e.update(workflows.UpdateInvitationResent, workflows.InvitationResend{Key: key, ExpiresAt: e.expires})
	}
}

func (e *invitationEnv) run() workflows.InvitationResult {
	e.t.Helper()
	e.ExecuteWorkflow(workflows.Invitation, e.in)
	if !e.IsWorkflowCompleted() || e.GetWorkflowError() != nil {
		e.t.Fatalf("workflow: completed=%v err=%v", e.IsWorkflowCompleted(), e.GetWorkflowError())
	}
	var res workflows.InvitationResult
	if err := e.GetWorkflowResult(&res); err != nil {
		e.t.Fatal(err)
	}
	return res
}

func (e *invitationEnv) wantMails(want ...sentInvitation) {
	e.t.Helper()
	if len(e.mails) != len(want) {
		e.t.Fatalf("mails %+v, want %+v", e.mails, want)
	}
	for i := range want {
		if e.mails[i] != want[i] {
			e.t.Fatalf("mail %d: %+v, want %+v", i, e.mails[i], want[i])
		}
	}
}

// TestInvitationRemindsThenExpires: the mail at once, one reminder after 5
// days with the same link, the expiry at 7.
func TestInvitationRemindsThenExpires(t *testing.T) {
	e := newInvitationEnv(t)
	res := e.run()
	if res.Outcome != workflows.InvitationOutcomeExpired || res.Mails != 2 || e.status != kudos.InvitationExpired {
		t.Fatalf("result %+v, status %s", res, e.status)
	}
	e.wantMails(sentInvitation{0, false, "key-0"}, sentInvitation{5 * day, true, "key-0"})
	if got := e.Now().Sub(e.start).Round(time.Hour); got != 7*day {
		t.Fatalf("ended after %v, want 7 days", got)
	}
}

// TestInvitationResendRenews: a resend on day 6 mails the new link at
// once, reminds 5 days later and expires 7 days after the resend.
func TestInvitationResendRenews(t *testing.T) {
	e := newInvitationEnv(t)
	e.at(6*day, func() { e.resend("key-1", true) })
	res := e.run()
	if res.Outcome != workflows.InvitationOutcomeExpired || res.Mails != 4 {
		t.Fatalf("result %+v", res)
	}
	e.wantMails(sentInvitation{0, false, "key-0"}, sentInvitation{5 * day, true, "key-0"},
		sentInvitation{6 * day, false, "key-1"}, sentInvitation{11 * day, true, "key-1"})
	if got := e.Now().Sub(e.start).Round(time.Hour); got != 13*day {
		t.Fatalf("ended after %v, want 13 days", got)
	}
}

// TestInvitationAcceptedOrRevokedEnds: an acceptance or a revocation ends
// the workflow at once, with no reminder after it.
func TestInvitationAcceptedOrRevokedEnds(t *testing.T) {
	for update, outcome := range map[string]string{workflows.UpdateInvitationAccepted: workflows.InvitationOutcomeAccepted,
		workflows.UpdateInvitationRevoked: workflows.InvitationOutcomeRevoked} {
		t.Run(update, func(t *testing.T) {
			e := newInvitationEnv(t)
			e.at(2*day, func() { e.status = kudos.InvitationAccepted; e.update(update) })
			res := e.run()
			if res.Outcome != outcome || res.Mails != 1 {
				t.Fatalf("result %+v", res)
			}
			if got := e.Now().Sub(e.start).Round(time.Hour); got != 2*day {
				t.Fatalf("ended after %v, want 2 days", got)
			}
		})
	}
}

// TestInvitationRenewedInPostgresWaitsForItsNewExpiry: a resend whose
// update has not arrived when the old expiry comes does not expire the
// renewed invitation: the workflow waits for the expiry Postgres has.
func TestInvitationRenewedInPostgresWaitsForItsNewExpiry(t *testing.T) {
	e := newInvitationEnv(t)
	e.at(6*day, func() { e.resend("key-1", false) })
	res := e.run()
	if res.Outcome != workflows.InvitationOutcomeExpired {
		t.Fatalf("result %+v", res)
	}
	if got := e.Now().Sub(e.start).Round(time.Hour); got != 13*day {
		t.Fatalf("expired after %v, want at the renewed expiry (13 days)", got)
	}
}

// TestInvitationWithoutReminder: KUDOS_INVITATION_REMINDER=0 sends none.
func TestInvitationWithoutReminder(t *testing.T) {
	e := newInvitationEnv(t)
	e.in.Reminder = 0
	if res := e.run(); res.Mails != 1 || res.Outcome != workflows.InvitationOutcomeExpired {
		t.Fatalf("result %+v", res)
	}
}
