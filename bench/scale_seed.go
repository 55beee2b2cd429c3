package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"kudos/dispatch"
)

// scaleSeed is the SQL that writes accounts [$2, $3) of the scale
// benchmark, run $1, with the rows a year of use leaves: an owner (an
// activated user) and a member, their memberships, the subscription, two
// paid invoices and four timeline events for a paid plan, and a session
// per user. Accounts below $4 are on a running trial (their workflows are
// started by the benchmark); the others are plans and trials that ended,
// which need no running workflow (the reconciliation walks them all the
// same). Everything is made by generate_series in Postgres: 100 000
// accounts in a minute, not the hours sign-up would take.
var scaleSeed = []string{
	`INSERT INTO users (id, email, firstname, lastname, password_hash, activated, preferred_language, opt_in_terms_of_use)
	 SELECT md5('u' || $1 || i || r)::uuid, 'scale-' || $1 || '-' || i || '-' || r || '@bench.kudos.test', 'Scale', 'User ' || i,
	        '', true, 'en', true
	 FROM generate_series($2::int, $3::int - 1) i, generate_series(0, 1) r`,
	`INSERT INTO accounts (id, name) SELECT md5('a' || $1 || i)::uuid, 'Scale account ' || i FROM generate_series($2::int, $3::int - 1) i`,
	`INSERT INTO memberships (account_id, user_id, role)
	 SELECT md5('a' || $1 || i)::uuid, md5('u' || $1 || i || r)::uuid, CASE r WHEN 0 THEN 'owner' ELSE 'member' END
	 FROM generate_series($2::int, $3::int - 1) i, generate_series(0, 1) r`,
	`INSERT INTO subscriptions (account_id, plan, show_status, show_onboarding, trials_left, trial_expires_at, plan_renewal_at)
	 SELECT md5('a' || $1 || i)::uuid,
	        CASE WHEN i < $4::int OR i % 5 = 0 THEN 'TRIAL' ELSE (ARRAY['STARTER', 'PRO', 'TEAM'])[1 + i % 3] END,
	        CASE WHEN i < $4::int THEN 'active' WHEN i % 5 = 0 THEN 'trial_expired' ELSE 'plan_expired' END,
	        false, 0,
	        CASE WHEN i < $4::int THEN now() + interval '14 days' ELSE now() - interval '300 days' END,
	        CASE WHEN i >= $4::int AND i % 5 <> 0 THEN now() - (i % 365) * interval '1 day' END
	 FROM generate_series($2::int, $3::int - 1) i`,
	`INSERT INTO invoices (id, account_id, number, kind, plan, description, net_amount, vat_amount, vat_rate, total_amount,
	        currency, status, created_at, finalized_at, paid_at)
	 SELECT md5('i' || $1 || i || k)::uuid, md5('a' || $1 || i)::uuid, 'S' || $1 || '-' || i || '-' || k,
	        CASE k WHEN 0 THEN 'SUBSCRIPTION' ELSE 'RENEWAL' END, (ARRAY['STARTER', 'PRO', 'TEAM'])[1 + i % 3], 'Kudos plan',
	        18000, 3780, 21.00, 21780, 'EUR', 'PAID', now() - (400 - 365 * k) * interval '1 day',
	        now() - (400 - 365 * k) * interval '1 day', now() - (400 - 365 * k) * interval '1 day'
	 FROM generate_series($2::int, $3::int - 1) i, generate_series(0, 1) k WHERE i >= $4::int AND i % 5 <> 0`,
	`INSERT INTO billing_events (key, account_id, at, type, plan, amount, currency)
	 SELECT 'scale:' || $1 || ':' || i || ':' || k, md5('a' || $1 || i)::uuid, now() - (400 - k) * interval '1 day',
	        (ARRAY['trial_started', 'checkout_opened', 'payment_succeeded', 'plan_started'])[1 + k],
	        CASE WHEN k = 0 THEN 'TRIAL' ELSE (ARRAY['STARTER', 'PRO', 'TEAM'])[1 + i % 3] END,
	        CASE WHEN k = 2 THEN 21780 END, CASE WHEN k = 2 THEN 'EUR' END
	 FROM generate_series($2::int, $3::int - 1) i, generate_series(0, 3) k WHERE i >= $4::int AND i % 5 <> 0`,
	`INSERT INTO sessions (id, user_id, expires_at)
	 SELECT md5('s' || $1 || i || r)::uuid, md5('u' || $1 || i || r)::uuid, now() + interval '30 days'
	 FROM generate_series($2::int, $3::int - 1) i, generate_series(0, 1) r`,
}

// seedScale writes the accounts [from, to) of this run (scaleSeed), each
// statement in its own transaction, and returns how long it took.
func seedScale(ctx context.Context, e *Env, from, to, running int) (time.Duration, error) {
	t0 := time.Now()
	args := []any{e.RunID, from, to, running}
	for _, sql := range scaleSeed {
		n := 0 // the parameters the statement uses: $1 … $n
		for _, m := range paramRe.FindAllStringSubmatch(sql, -1) {
			n = max(n, int(m[1][0]-'0'))
		}
		if _, err := e.DB.Pool.Exec(ctx, sql, args[:n]...); err != nil {
			return 0, fmt.Errorf("scale seed: %w", err)
		}
	}
	_, err := e.DB.Pool.Exec(ctx, `ANALYZE`)
	return time.Since(t0), err
}

// startScaleWorkflows starts the subscription workflows of the accounts
// [from, to) of this run, as the outbox relay starts them (from the read
// model).
func startScaleWorkflows(ctx context.Context, e *Env, from, to int) error {
	if to <= from {
		return nil
	}
	rows, err := e.DB.Pool.Query(ctx, `SELECT md5('a' || $1 || i)::uuid FROM generate_series($2::int, $3::int - 1) i`, e.RunID, from, to)
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return err
	}
	starts := RunN(ctx, startConcurrency, len(ids), func(ctx context.Context, i int) error {
		row, err := dispatch.RowOf(dispatch.SubscriptionStart(ids[i]))
		if err != nil {
			return err
		}
		return e.Dispatcher.Deliver(ctx, row)
	})
	if starts.Errors > 0 {
		return fmt.Errorf("%d of %d subscription workflow starts failed: %s", starts.Errors, len(ids), starts.FirstError)
	}
	return nil
}
