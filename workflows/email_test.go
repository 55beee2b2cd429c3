package workflows_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"

	"kudos"
	"kudos/activities"
	"kudos/auth"
	"kudos/internal/testenv"
	"kudos/mailer"
	"kudos/workflows"
)

// memStore is the mail part of the store, in memory; failMark makes the next
// MarkMailSent calls fail.
type memStore struct {
	activities.Store // the rest of the store: not used by the mail activity
	mu               sync.Mutex
	sent             map[string]bool
	failMark         int
}

func (m *memStore) MailSent(_ context.Context, key string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sent[key], nil
}

func (m *memStore) MarkMailSent(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failMark > 0 {
		m.failMark--
		return errors.New("database briefly unavailable")
	}
	m.sent[key] = true
	return nil
}

// recoveringSender is a real SMTP sender to a real capture inbox that
// refuses the first `down` attempts, like an SMTP server that is down.
type recoveringSender struct {
	inbox    *mailer.Inbox
	sender   *mailer.SMTPSender
	down     int
	attempts int
}

func (r *recoveringSender) Send(ctx context.Context, msg kudos.Message) error {
	r.attempts++
	r.inbox.SetRefusing(r.attempts <= r.down)
	return r.sender.Send(ctx, msg)
}

func newMailEnv(t *testing.T, down, failMark int) (*testsuite.TestWorkflowEnvironment, *mailer.Inbox, *recoveringSender, *memStore) {
	inbox, sender := testenv.Inbox(t)
	rs := &recoveringSender{inbox: inbox, sender: sender, down: down}
	st := &memStore{sent: map[string]bool{}, failMark: failMark}
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	env := suite.NewTestWorkflowEnvironment()
	env.RegisterWorkflow(workflows.Email)
	env.RegisterActivity(&activities.Activities{Store: st, Mailer: rs, Render: mailer.Render, Now: time.Now,
		Tokens: auth.NewMailTokens("email-test-secret"), PublicURL: "http://127.0.0.1:8080"})
	return env, inbox, rs, st
}

var activation = kudos.MailRequest{Key: "k1", Purpose: kudos.MailActivation, To: "ada@example.com", Language: "fr",
	Name: "Ada"}

func TestEmailRetriesWhileSMTPIsDownAndSendsOnce(t *testing.T) {
	env, inbox, rs, st := newMailEnv(t, 5, 0)
	env.ExecuteWorkflow(workflows.Email, activation)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow: completed=%v err=%v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	if rs.attempts != 6 {
		t.Fatalf("%d attempts, want 5 refused + 1 delivered", rs.attempts)
	}
	msgs := inbox.Messages("ada@example.com")
	if len(msgs) != 1 || msgs[0].Subject == "" {
		t.Fatalf("inbox holds %d messages, want exactly 1", len(msgs))
	}
	if !st.sent["k1"] {
		t.Fatal("the send is not recorded")
	}
}

func TestEmailRetryAfterRecordingFailureDoesNotDuplicate(t *testing.T) {
	env, inbox, rs, _ := newMailEnv(t, 0, 1)
	env.ExecuteWorkflow(workflows.Email, activation)
	if env.GetWorkflowError() != nil {
		t.Fatal(env.GetWorkflowError())
	}
	// SMTP accepted twice (the first record failed), but the Message-ID is
	// the request's, so the recipient holds one mail.
	if rs.attempts != 2 || len(inbox.Messages("ada@example.com")) != 1 {
		t.Fatalf("attempts=%d messages=%d", rs.attempts, len(inbox.Messages("ada@example.com")))
	}
}

func TestEmailAlreadySentIsSkipped(t *testing.T) {
	env, inbox, rs, st := newMailEnv(t, 0, 0)
	st.sent["k1"] = true
	env.ExecuteWorkflow(workflows.Email, activation)
	var res workflows.EmailResult
	if err := env.GetWorkflowResult(&res); err != nil || !res.AlreadySent {
		t.Fatalf("result %+v err %v", res, err)
	}
	if rs.attempts != 0 || len(inbox.Messages("")) != 0 {
		t.Fatal("a sent mail was sent again")
	}
}

func TestEmailBadRequestIsNotRetried(t *testing.T) {
	env, _, rs, _ := newMailEnv(t, 0, 0)
	bad := activation
	bad.Purpose = "nonsense"
	env.ExecuteWorkflow(workflows.Email, bad)
	if env.GetWorkflowError() == nil || rs.attempts != 0 {
		t.Fatalf("err=%v attempts=%d: an unrenderable mail must fail at once", env.GetWorkflowError(), rs.attempts)
	}
}

func TestEmailGivesUpAfterADay(t *testing.T) {
	env, inbox, rs, _ := newMailEnv(t, 1_000_000, 0)
	env.ExecuteWorkflow(workflows.Email, activation)
	if env.GetWorkflowError() == nil || len(inbox.Messages("")) != 0 {
		t.Fatal("delivery against a dead SMTP server did not end")
	}
	// 1 s doubling to a 10 min cap over 24 h: about 150 attempts.
	if rs.attempts < 100 || rs.attempts > 200 {
		t.Fatalf("%d attempts in the delivery window", rs.attempts)
	}
}
