package store

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Outbox kinds.
const (
	// OutboxMail starts the e-mail workflow for a kudos.MailRequest.
	OutboxMail = "mail"
)

// OutboxEntry is work for Temporal recorded with the change that causes it.
// Key is unique: a second entry with the same key is ignored.
type OutboxEntry struct {
	Key     string
	Kind    string
	Payload any
}

func insertOutbox(ctx context.Context, tx pgx.Tx, e OutboxEntry) error {
	payload, err := json.Marshal(e.Payload)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO outbox (key, kind, payload) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`,
		e.Key, e.Kind, payload)
	return wrapErr(err)
}

// Enqueue records an outbox entry on its own.
func (db *DB) Enqueue(ctx context.Context, e OutboxEntry) error {
	return db.inTx(ctx, func(tx pgx.Tx) error { return insertOutbox(ctx, tx, e) })
}

// DeliverFunc hands one outbox entry to Temporal. It must be idempotent by
// key (workflow ids derived from the key make it so).
type DeliverFunc func(ctx context.Context, kind, key string, payload []byte) error

// Relay delivers outbox entries: at once when kicked after a commit, and
// again with backoff for entries whose delivery failed (Temporal down).
type Relay struct {
	DB      *DB
	Deliver DeliverFunc
	Log     *slog.Logger
	// Poll is how often pending entries are looked for without a kick.
	Poll time.Duration

	kick chan struct{}
}

// NewRelay returns a relay; start it with Run.
func NewRelay(db *DB, deliver DeliverFunc, log *slog.Logger) *Relay {
	return &Relay{DB: db, Deliver: deliver, Log: log, Poll: 2 * time.Second, kick: make(chan struct{}, 1)}
}

// Kick asks the relay to look for entries now. It never blocks.
func (r *Relay) Kick() {
	if r == nil {
		return
	}
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// Run delivers entries until ctx ends.
func (r *Relay) Run(ctx context.Context) {
	t := time.NewTicker(r.Poll)
	defer t.Stop()
	for {
		for {
			n, err := r.DeliverPending(ctx)
			if err != nil && ctx.Err() == nil {
				r.Log.Warn("outbox: delivery round failed", "err", err)
			}
			if n < relayBatch || err != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
		case <-t.C:
		}
	}
}

const relayBatch = 50

// DeliverPending delivers up to one batch of due entries and returns how many
// it attempted. Rows are locked with SKIP LOCKED, so several api processes
// can relay side by side. The first entry goes alone; if it fails, Temporal
// is most likely unreachable, and trying the rest would only keep this
// transaction (and its row locks) open for a timeout per entry. Otherwise
// the rest go concurrently by workflow (deliverBatch), and a failure stops
// what has not started.
func (r *Relay) DeliverPending(ctx context.Context) (int, error) {
	n := 0
	err := r.DB.inTx(ctx, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, key, kind, payload, attempts FROM outbox
			WHERE delivered_at IS NULL AND next_attempt_at <= $1
			ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`, r.DB.Now(), relayBatch)
		if err != nil {
			return wrapErr(err)
		}
		var entries []relayEntry
		for rows.Next() {
			var e relayEntry
			if err := rows.Scan(&e.id, &e.key, &e.kind, &e.payload, &e.attempts); err != nil {
				return err
			}
			entries = append(entries, e)
		}
		if err := rows.Err(); err != nil {
			return wrapErr(err)
		}
		outcomes := r.deliverBatch(ctx, entries)
		for i, e := range entries {
			derr, attempted := outcomes[i].err, outcomes[i].attempted
			if !attempted {
				continue
			}
			n++
			if derr == nil {
				_, err = tx.Exec(ctx, `UPDATE outbox SET delivered_at = $2, attempts = attempts + 1, last_error = NULL WHERE id = $1`, e.id, r.DB.Now())
			} else {
				backoff := min(time.Duration(1<<min(e.attempts, 8))*time.Second, 5*time.Minute)
				r.Log.Warn("outbox: delivery failed, will retry", "key", e.key, "kind", e.kind, "attempt", e.attempts+1, "retry_in", backoff, "err", derr)
				_, err = tx.Exec(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 WHERE id = $1`,
					e.id, derr.Error(), r.DB.Now().Add(backoff))
			}
			if err != nil {
				return wrapErr(err)
			}
		}
		return nil
	})
	return n, err
}

// relayWorkers is how many lanes of a batch are delivered at once.
const relayWorkers = 8

// relayEntry is an outbox row being delivered.
type relayEntry struct {
	id        int64
	key, kind string
	payload   []byte
	attempts  int
}

// relayOutcome is what became of one entry of a batch.
type relayOutcome struct {
	attempted bool
	err       error
}

// lane names the workflow an entry goes to: entries of one lane are
// delivered in order, different lanes at the same time.
func lane(e relayEntry) string {
	var p struct {
		AccountID string `json:"account_id"`
	}
	switch e.kind {
	case OutboxPaymentEvent, OutboxSubscriptionStart:
		if json.Unmarshal(e.payload, &p) == nil && p.AccountID != "" {
			return "subscription:" + p.AccountID
		}
	case OutboxLogoStart:
		if json.Unmarshal(e.payload, &p) == nil && p.AccountID != "" {
			return "logo:" + p.AccountID
		}
	}
	return e.key
}

// deliverBatch delivers the entries (in id order): the first alone, so
// that while Temporal is down a round costs one attempt; then the others by
// lane, up to relayWorkers lanes at once, each lane in order. After a failed
// delivery no further entry is started, and nothing of a lane follows its
// failure.
func (r *Relay) deliverBatch(ctx context.Context, entries []relayEntry) []relayOutcome {
	out := make([]relayOutcome, len(entries))
	deliver := func(i int) error {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		err := r.Deliver(dctx, entries[i].kind, entries[i].key, entries[i].payload)
		out[i] = relayOutcome{attempted: true, err: err}
		return err
	}
	if len(entries) == 0 || deliver(0) != nil {
		return out
	}
	var order []string
	lanes := map[string][]int{}
	for i := 1; i < len(entries); i++ {
		l := lane(entries[i])
		if _, ok := lanes[l]; !ok {
			order = append(order, l)
		}
		lanes[l] = append(lanes[l], i)
	}
	var failed atomic.Bool
	work := make(chan []int)
	var wg sync.WaitGroup
	for range min(relayWorkers, len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for idx := range work {
				for _, i := range idx {
					if failed.Load() || deliver(i) != nil {
						failed.Store(true)
						break
					}
				}
			}
		}()
	}
	for _, l := range order {
		if failed.Load() {
			break
		}
		work <- lanes[l]
	}
	close(work)
	wg.Wait()
	return out
}
