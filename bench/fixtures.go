package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos"
	"kudos/auth"
)

// Member is a bench user with the account they own.
type Member struct {
	UserID, AccountID uuid.UUID
	Email             string
}

// AccountSpec says which accounts CreateAccounts makes.
type AccountSpec struct {
	// Prefix starts every e-mail address (with the run id after it).
	Prefix string
	N      int
	// PasswordHash is stored for every user ("" leaves sign-in impossible).
	PasswordHash string
	// TrialExpiresAt is the end of every account's trial.
	TrialExpiresAt time.Time
	// ShowOnboarding is the subscription's show_onboarding.
	ShowOnboarding bool
}

// CreateAccounts writes spec.N activated users, each the owner of an
// account on a running trial, straight into the read model with COPY: the
// rows sign-up and activation make (store.CreateUser, store.Activate), in a
// fraction of the time, and without the outbox entries (no activation mail,
// no workflow: each benchmark starts the workflows it needs).
func (e *Env) CreateAccounts(ctx context.Context, spec AccountSpec) ([]Member, error) {
	members := make([]Member, spec.N)
	users := make([][]any, spec.N)
	accounts := make([][]any, spec.N)
	memberships := make([][]any, spec.N)
	subs := make([][]any, spec.N)
	expires := spec.TrialExpiresAt.UTC()
	for i := range members {
		m := Member{UserID: uuid.New(), AccountID: uuid.New(), Email: fmt.Sprintf("%s-%s-%d@bench.kudos.test", spec.Prefix, e.RunID, i)}
		members[i] = m
		users[i] = []any{m.UserID, m.Email, "Bench", fmt.Sprintf("User %d", i), spec.PasswordHash, true, "en", true}
		accounts[i] = []any{m.AccountID, fmt.Sprintf("Bench account %d", i)}
		memberships[i] = []any{m.AccountID, m.UserID, "owner"}
		subs[i] = []any{m.AccountID, string(kudos.PlanTrial), string(kudos.StatusActive), spec.ShowOnboarding, 10, expires}
	}
	tx, err := e.DB.Pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	copies := []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"users", []string{"id", "email", "firstname", "lastname", "password_hash", "activated", "preferred_language", "opt_in_terms_of_use"}, users},
		{"accounts", []string{"id", "name"}, accounts},
		{"memberships", []string{"account_id", "user_id", "role"}, memberships},
		{"subscriptions", []string{"account_id", "plan", "show_status", "show_onboarding", "trials_left", "trial_expires_at"}, subs},
	}
	for _, c := range copies {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, pgx.CopyFromRows(c.rows)); err != nil {
			return nil, fmt.Errorf("fixtures: copy %s: %w", c.table, err)
		}
	}
	return members, tx.Commit(ctx)
}

// Token is a signed-in session of a member.
type Token struct {
	Member
	SessionID uuid.UUID
	Token     string
	Expiry    time.Time
}

// SignIn creates a session row for each member and signs its bearer token
// with the api's secret: what a sign-in leaves behind, without the argon2
// hash and the rate limits in front of it.
func (e *Env) SignIn(ctx context.Context, members []Member) ([]Token, error) {
	sessions := auth.NewSessions(e.JWTSecret, nil)
	expires := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second)
	out := make([]Token, len(members))
	rows := make([][]any, len(members))
	for i, m := range members {
		s := &kudos.Session{ID: uuid.New(), UserID: m.UserID, ExpiresAt: expires}
		tok, err := sessions.Issue(s)
		if err != nil {
			return nil, err
		}
		out[i] = Token{Member: m, SessionID: s.ID, Token: tok, Expiry: expires}
		rows[i] = []any{s.ID, s.UserID, s.ExpiresAt}
	}
	_, err := e.DB.Pool.CopyFrom(ctx, pgx.Identifier{"sessions"}, []string{"id", "user_id", "expires_at"}, pgx.CopyFromRows(rows))
	if err != nil {
		return nil, fmt.Errorf("fixtures: copy sessions: %w", err)
	}
	return out, nil
}

// accountIDs lists the members' accounts (for queries with = ANY($1)).
func accountIDs(members []Member) []uuid.UUID {
	ids := make([]uuid.UUID, len(members))
	for i, m := range members {
		ids[i] = m.AccountID
	}
	return ids
}
