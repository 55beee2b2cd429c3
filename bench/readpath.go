package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"kudos/store"
)

// ReadResult are the figures of the read-path benchmark.
type ReadResult struct {
	Clients  int     `json:"clients"`
	Kudos    Summary `json:"kudos"`
	Baseline Summary `json:"baseline"`
	Ratio    float64 `json:"ratio"`
	// KudosCPU and BaselineCPU say where the CPU went, per request.
	KudosCPU    CPUShare `json:"kudos_cpu"`
	BaselineCPU CPUShare `json:"baseline_cpu"`
}

// ReadPath measures GET /v1/accounts/{id} with valid tokens from
// o.Concurrency clients, against its baseline: the primary-key lookups the
// request needs (the session row, membership, account, subscription and
// user, joined in the one query of store.SessionAccountView), made with pgx
// by the same store code, on a pool configured like the api's, at the same
// concurrency. The two run in
// alternating rounds so that a noisy neighbour hits both alike.
func ReadPath(ctx context.Context, e *Env, o Options) (*ReadResult, []Row, error) {
	members, err := e.CreateAccounts(ctx, AccountSpec{Prefix: "read", N: o.Concurrency,
		TrialExpiresAt: time.Now().Add(14 * 24 * time.Hour)})
	if err != nil {
		return nil, nil, err
	}
	tokens, err := e.SignIn(ctx, members)
	if err != nil {
		return nil, nil, err
	}
	get := func(ctx context.Context, i int) error {
		t := tokens[i%len(tokens)]
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.BaseURL+"/v1/accounts/"+t.AccountID.String(), nil)
		req.Header.Set("Authorization", "Bearer "+t.Token)
		res, err := e.HTTP.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		_, _ = io.Copy(io.Discard, res.Body)
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("GET /v1/accounts/{id}: %s", res.Status)
		}
		return nil
	}
	if err := get(ctx, 0); err != nil {
		return nil, nil, fmt.Errorf("read path: %w", err)
	}
	// The baseline pool is opened like the api's (store.Open: pgxpool's
	// defaults), so that both wait for the same number of connections.
	db, err := store.Open(ctx, e.DatabaseURL)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	lookup := func(ctx context.Context, i int) error {
		t := tokens[i%len(tokens)]
		_, _, err := db.SessionAccountView(ctx, t.AccountID, t.SessionID, t.UserID)
		return err
	}
	kudos, base := &Load{}, &Load{}
	var kudosCPU, baseCPU CPUSample
	slice := o.Duration / time.Duration(o.Rounds)
	for range o.Rounds {
		l, cpu := Measure(e.CPU(), func() *Load { return RunFor(ctx, o.Concurrency, slice, get) })
		kudos.Add(l)
		kudosCPU = kudosCPU.Add(cpu)
		l, cpu = Measure(e.CPU(), func() *Load { return RunFor(ctx, o.Concurrency, slice, lookup) })
		base.Add(l)
		baseCPU = baseCPU.Add(cpu)
	}
	res := &ReadResult{Clients: o.Concurrency, Kudos: kudos.Summary(), Baseline: base.Summary(),
		KudosCPU: kudosCPU.Share(kudos.Ops), BaselineCPU: baseCPU.Share(base.Ops)}
	if kudos.Errors > 0 || base.Errors > 0 {
		return res, nil, fmt.Errorf("read path: %d failed requests (%s), %d failed lookups (%s)",
			kudos.Errors, kudos.FirstError, base.Errors, base.FirstError)
	}
	const name = "read path"
	rps := compared(name, fmt.Sprintf("requests/s (%d clients)", o.Concurrency), "/s", kudos.Rate(), base.Rate())
	res.Ratio = *rps.Ratio
	p99 := ms(kudos.Percentile(0.99))
	rows := []Row{
		rps.target("ratio ≥ 0.5", res.Ratio >= 0.5),
		perCPU(name, "requests per CPU-second (neighbours excluded)", res.KudosCPU, res.BaselineCPU),
		compared(name, "p50", "ms", ms(kudos.Percentile(0.5)), ms(base.Percentile(0.5))),
		compared(name, "p99", "ms", p99, ms(base.Percentile(0.99))).target("≤ 15 ms", p99 <= 15),
		compared(name, "CPU/request: api vs pgx caller", "ms", res.KudosCPU.APIMs, res.BaselineCPU.BenchMs),
		compared(name, "CPU/request: Postgres", "ms", res.KudosCPU.PostgresMs, res.BaselineCPU.PostgresMs),
		figure(name, "CPU/request: HTTP load generator", "ms", res.KudosCPU.BenchMs),
		compared(name, "CPU taken by other work on the machine", "%", res.KudosCPU.OtherPercent(), res.BaselineCPU.OtherPercent()),
	}
	return res, rows, nil
}
