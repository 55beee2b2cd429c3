package worker_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/operatorservice/v1"

	"kudos"
	"kudos/app"
	"kudos/auth"
	"kudos/config"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/mailer"
	"kudos/worker"
	"kudos/workflows"
)

// TestMailThroughTheRealStack drives a mail from the outbox to a real
// Temporal server, through the worker, to an SMTP inbox, and checks that a
// second delivery of the same entry sends nothing more.
func TestMailThroughTheRealStack(t *testing.T) {
	db := testenv.DB(t)
	tc := testenv.Temporal(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	inbox := mailer.NewInbox()
	if err := inbox.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer inbox.Close()
	sender, err := mailer.NewSMTPSender("smtp://"+inbox.Addr(), "Kudos <no-reply@kudos.localhost>")
	if err != nil {
		t.Fatal(err)
	}
	queue := "test-" + uuid.NewString()
	const secret = "worker-test-secret-worker-test-secret"
	tokens := auth.NewMailTokens(secret)
	services := app.Services{Config: &config.Config{TaskQueue: queue, UIOrigins: []string{"http://127.0.0.1:8080"},
		PublicURL: "http://127.0.0.1:8080", JWTSecret: secret}, DB: db, Temporal: tc,
		Mailer: sender, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	w := worker.New(tc, queue, services.Activities(nil))
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	// SMTP is down when the mail is queued: nothing is lost.
	inbox.SetRefusing(true)
	key := uuid.NewString()
	req := kudos.MailRequest{Key: key, Purpose: kudos.MailPasswordReset, To: "ops@example.com", Language: "nl",
		Name: "Ops"}
	entry := dispatch.Mail(req)
	if err := db.Enqueue(ctx, entry); err != nil {
		t.Fatal(err)
	}
	disp := services.Dispatcher()
	relay := dispatch.NewRelay(db, disp.Deliver, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if n, err := relay.DeliverPending(ctx); err != nil || n != 1 {
		t.Fatalf("relay delivered %d: %v", n, err)
	}
	time.Sleep(1500 * time.Millisecond)
	if got := inbox.Messages("ops@example.com"); len(got) != 0 {
		t.Fatal("a refused mail arrived")
	}
	inbox.SetRefusing(false)
	var got []mailer.InboxMessage
	for ctx.Err() == nil {
		if got = inbox.Messages("ops@example.com"); len(got) > 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(got) != 1 || !strings.Contains(got[0].Text, "http://127.0.0.1:8080/auth/reset-password?token="+tokens.Token(kudos.TokenPasswordReset, key)) {
		t.Fatalf("inbox: %+v", got)
	}
	// The workflow finished, and delivering the same entry again (a relay
	// crash before marking it) starts nothing new.
	run := tc.GetWorkflow(ctx, workflows.EmailWorkflowID(req), "")
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	row, err := dispatch.RowOf(entry)
	if err != nil {
		t.Fatal(err)
	}
	if err := disp.Deliver(ctx, row); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if n := len(inbox.Messages("ops@example.com")); n != 1 {
		t.Fatalf("%d mails after a duplicate delivery", n)
	}
}

func TestEnsureSearchAttributes(t *testing.T) {
	tc := testenv.Temporal(t)
	ctx := context.Background()
	if err := worker.EnsureSearchAttributes(ctx, tc, "default"); err != nil {
		t.Fatal(err)
	}
	if err := worker.EnsureSearchAttributes(ctx, tc, "default"); err != nil {
		t.Fatalf("second call: %v", err)
	}
	have, err := tc.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: "default"})
	if err != nil {
		t.Fatal(err)
	}
	for _, sa := range workflows.SearchAttributes {
		if typ, ok := have.CustomAttributes[sa.Name]; !ok || typ != sa.Type {
			t.Errorf("search attribute %s: %v (registered %v), want %v", sa.Name, typ, ok, sa.Type)
		}
	}
}
