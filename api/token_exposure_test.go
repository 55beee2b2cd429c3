package api_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	"kudos"
	"kudos/internal/testenv"
	"kudos/workflows"
)

// TestNoMailTokenStoredInClear: after a sign-up, a password reset and an
// e-mail change, neither any row of any table nor the history of any e-mail
// workflow holds a mailed token or its link (issue 15: who reads the
// database, a backup or the Temporal Web UI must not be able to reset a
// password).
func TestNoMailTokenStoredInClear(t *testing.T) {
	t.Parallel()
	h := newHarness(t).withTemporal(time.Hour)
	ctx := context.Background()
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("leak@example.com"), ""), 201)
	signup := h.lastMail("leak@example.com")
	act := h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(h.srv.Tokens.Token(kudos.TokenActivation, signup.Key)), ""), 201)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": "leak@example.com"}, ""), 202)
	h.deliverQueued()
	reset := h.lastMail("leak@example.com")
	h.expect(h.do("PATCH", "/v1/accounts/"+act.str("account_id")+"/user", changeEmailBody("moved@example.com"), act.str("token")), 200)
	change := h.lastMail("moved@example.com")
	secrets := []string{
		h.srv.Tokens.Token(kudos.TokenActivation, signup.Key),
		h.srv.Tokens.Token(kudos.TokenPasswordReset, reset.Key),
		h.srv.Tokens.Token(kudos.TokenActivation, change.Key),
		"token=",
	}

	// Every mail was delivered (so the workflows ran their activities).
	keys := []kudos.MailRequest{signup, reset, change}
	for _, m := range keys {
		eventually(t, "mail "+m.Key+" sent", func() bool {
			sent, _ := h.db.MailSent(ctx, m.Key)
			return sent
		})
	}

	// Every row of every table, whole.
	for _, hit := range h.rowsHolding(secrets...) {
		t.Errorf("%s", hit)
	}

	// Every event of every e-mail workflow's history.
	for _, m := range keys {
		events := testenv.History(t, h.tc, workflows.EmailWorkflowID(m), "")
		for _, ev := range events {
			raw, _ := proto.Marshal(ev)
			for _, s := range secrets {
				if bytes.Contains(raw, []byte(s)) {
					t.Errorf("history of %s, event %d (%s), holds %q", workflows.EmailWorkflowID(m), ev.EventId, ev.EventType, s)
				}
			}
		}
		if len(events) == 0 {
			t.Errorf("no history for %s", workflows.EmailWorkflowID(m))
		}
	}
}

// changeEmailBody is a PATCH …/user body asking to move to email.
func changeEmailBody(email string) map[string]any {
	return map[string]any{"email": email, "current_password": "Secret1!"}
}

// rowsHolding scans every row of every table, whole (as text), and returns
// a line for each row that holds one of needles: what a test of stored
// secrets or erased personal data looks for.
func (h *harness) rowsHolding(needles ...string) []string {
	h.t.Helper()
	ctx := context.Background()
	tables, err := h.db.Pool.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)
	if err != nil {
		h.t.Fatal(err)
	}
	names, err := pgx.CollectRows(tables, pgx.RowTo[string])
	if err != nil {
		h.t.Fatal(err)
	}
	var hits []string
	for _, table := range names {
		rows, err := h.db.Pool.Query(ctx, `SELECT t::text FROM `+pgx.Identifier{table}.Sanitize()+` t`)
		if err != nil {
			h.t.Fatal(err)
		}
		texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			h.t.Fatal(err)
		}
		for _, row := range texts {
			for _, s := range needles {
				if strings.Contains(row, s) {
					hits = append(hits, fmt.Sprintf("table %s holds %q: %.300s", table, s, row))
				}
			}
		}
	}
	return hits
}
