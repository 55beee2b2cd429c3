package api_test

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"kudos/dispatch"
)

// expiredAndLive counts the rows of a table that cond (SQL over the
// table's columns, $1 the time) calls expired at now, and the others.
func (h *harness) expiredAndLive(table, cond string, now time.Time) (expired, live int) {
	h.t.Helper()
	err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE `+cond+`), count(*) FILTER (WHERE NOT (`+cond+`))
		FROM `+table, now).Scan(&expired, &live)
	if err != nil {
		h.t.Fatal(err)
	}
	return expired, live
}

// TestReconcilePurgesExpiredRows: the reconciliation, which a Temporal
// Schedule runs, deletes expired rate-limit buckets, Google sign-in flows,
// sessions, mailed tokens and WebAuthn ceremonies, and leaves the live ones (issue 27 item 2:
// they were kept forever), VIES's answers past 24 h (issue 35 item 6), and
// the record of a mail sent past store.SentMailRetention (it was kept
// forever, one row per mail, and every send looks it up).
func TestReconcilePurgesExpiredRows(t *testing.T) {
	t.Parallel()
	h := trustingHarness(t)
	// The store's clock is moved while the relay reads it: through an
	// atomic, set before the relay starts.
	var ago atomic.Int64
	h.db.SetClock(func() time.Time { return time.Now().Add(-time.Duration(ago.Load())) })
	h = h.withTemporal(time.Hour)
	// A month ago: a sign-up (its activation token), a sign-in (its session
	// and rate-limit buckets) and a Google sign-in started.
	ago.Store(int64(30 * 24 * time.Hour))
	_, account := h.signedUpUser("old@example.com")
	if _, err := h.db.Pool.Exec(t.Context(), `INSERT INTO vat_answers (country, vat_id, valid, checked_at)
		VALUES ('BE', 'BE0123456789', true, now() - interval '30 days')`); err != nil { // VIES's answer a month ago
		t.Fatal(err)
	}
	if _, err := h.db.Pool.Exec(t.Context(), `INSERT INTO sent_mails (key, sent_at) VALUES ('old-mail', now() - interval '200 days'),
		('recent-mail', now() - interval '100 days')`); err != nil { // mails sent long ago (each send checks the table)
		t.Fatal(err)
	}
	h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "old@example.com", "password": "Secret1!"}, "", "X-Forwarded-For", "192.0.2.1"), 201)
	h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, "", "X-Forwarded-For", "192.0.2.1"), 201)
	h.expect(h.do("POST", "/v1/auth/passkey/options", nil, "", "X-Forwarded-For", "192.0.2.1"), 200)
	// Now: the same, live.
	ago.Store(0)
	h.expect(h.do("POST", "/v1/auth/signup", signupBody("new@example.com"), "", "X-Forwarded-For", "192.0.2.2"), 201)
	token := h.expect(h.do("POST", "/v1/auth/signin", map[string]any{"email": "old@example.com", "password": "Secret1!"}, "", "X-Forwarded-For", "192.0.2.2"), 201).str("token")
	h.expect(h.do("PATCH", "/v1/accounts/"+account+"/billing-address", beAddress("BE0987654321"), token), 200)
	h.expect(h.do("POST", "/v1/auth/oidc-signin", map[string]any{}, "", "X-Forwarded-For", "192.0.2.2"), 201)
	h.expect(h.do("POST", "/v1/auth/passkey/options", nil, "", "X-Forwarded-For", "192.0.2.2"), 200)

	tables := []struct{ table, expired string }{
		{"rate_limits", "at < $1::timestamptz - interval '1 day'"},
		{"oidc_flows", "expires_at <= $1::timestamptz"},
		{"sessions", "expires_at <= $1::timestamptz"},
		{"user_tokens", "expires_at <= $1::timestamptz"},
		{"webauthn_ceremonies", "expires_at <= $1::timestamptz"},
		{"vat_answers", "checked_at <= $1::timestamptz - interval '24 hours'"},
		// Only the two rows written here: the test's own mails are sent
		// while it runs.
		{"(SELECT * FROM sent_mails WHERE key IN ('old-mail', 'recent-mail')) sent_mails", "sent_at <= $1::timestamptz - interval '180 days'"},
	}
	live := map[string]int{}
	for _, tb := range tables {
		expired, n := h.expiredAndLive(tb.table, tb.expired, time.Now())
		if expired == 0 || n == 0 {
			t.Fatalf("%s: %d expired and %d live rows before the purge, want some of each", tb.table, expired, n)
		}
		live[tb.table] = n
	}
	r := &dispatch.Reconciler{Temporal: h.tc, DB: h.db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if _, err := r.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if expired, n := h.expiredAndLive(tb.table, tb.expired, time.Now()); expired != 0 || n != live[tb.table] {
			t.Errorf("%s after the purge: %d expired rows (want 0) and %d live (want %d)", tb.table, expired, n, live[tb.table])
		}
	}
}
