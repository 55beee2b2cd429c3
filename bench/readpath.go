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
	Clients int     `json:"clients"`
	Kudos   Summary `json:"kudos"`
	// Minimal is the first baseline: a bare Fiber service doing the same
	// work (ServeMinimal). Baseline is the reference: the query alone.
	Minimal  Summary `json:"minimal"`
	Baseline Summary `json:"baseline"`
	// RatioMinimal is Kudos's requests/s over the minimal service's; Ratio
	// over the bare query's.
	RatioMinimal float64 `json:"ratio_minimal"`
	Ratio        float64 `json:"ratio"`
	// KudosCPU, MinimalCPU and BaselineCPU say where the CPU went, per
	// request (MinimalCPU.APIMs is the minimal service's process).
	KudosCPU    CPUShare `json:"kudos_cpu"`
	MinimalCPU  CPUShare `json:"minimal_cpu"`
	BaselineCPU CPUShare `json:"baseline_cpu"`
}

// ReadPath measures GET /v1/accounts/{id} with valid tokens from
// o.Concurrency clients, against two baselines at the same concurrency:
//   - the minimal service (ServeMinimal): the same request, JWT check,
//     query and JSON in a bare Fiber handler of its own process — the
//     yardstick a user would pick;
//   - the query alone, for reference: the primary-key lookups the request
//     needs (the session row, membership, account, subscription and user,
//     joined in the one query of store.SessionAccountView), made with pgx by
//     the same store code, on a pool configured like the api's.
//
// The three run in alternating rounds so that a noisy neighbour hits them
// alike.
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
	getFrom := func(base string) Op {
		return func(ctx context.Context, i int) error {
			t := tokens[i%len(tokens)]
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/accounts/"+t.AccountID.String(), nil)
			req.Header.Set("Authorization", "Bearer "+t.Token)
			res, err := e.HTTP.Do(req)
			if err != nil {
				return err
			}
			defer res.Body.Close()
			_, _ = io.Copy(io.Discard, res.Body)
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("GET %s/v1/accounts/{id}: %s", base, res.Status)
			}
			return nil
		}
	}
	get := getFrom(e.BaseURL)
	if err := get(ctx, 0); err != nil {
		return nil, nil, fmt.Errorf("read path: %w", err)
	}
	minimal, err := StartMinimal(ctx, e)
	if err != nil {
		return nil, nil, err
	}
	defer minimal.Stop()
	getMinimal := getFrom(minimal.BaseURL)
	if err := getMinimal(ctx, 0); err != nil {
		return nil, nil, fmt.Errorf("minimal service: %w", err)
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
	// A short unmeasured warm-up of each: connections open, pools full, and
	// the api's start-up work (brotli for the UI) done before the rounds.
	warm := min(2*time.Second, o.Duration/4)
	for _, op := range []Op{get, getMinimal, lookup} {
		RunFor(ctx, o.Concurrency, warm, op)
	}
	minimalMeter := e.CPU()
	minimalMeter.API = minimal.PID
	kudos, mini, base := &Load{}, &Load{}, &Load{}
	var kudosCPU, miniCPU, baseCPU CPUSample
	slice := o.Duration / time.Duration(o.Rounds)
	for range o.Rounds {
		l, cpu := Measure(e.CPU(), func() *Load { return RunFor(ctx, o.Concurrency, slice, get) })
		kudos.Add(l)
		kudosCPU = kudosCPU.Add(cpu)
		l, cpu = Measure(minimalMeter, func() *Load { return RunFor(ctx, o.Concurrency, slice, getMinimal) })
		mini.Add(l)
		miniCPU = miniCPU.Add(cpu)
		l, cpu = Measure(e.CPU(), func() *Load { return RunFor(ctx, o.Concurrency, slice, lookup) })
		base.Add(l)
		baseCPU = baseCPU.Add(cpu)
	}
	res := &ReadResult{Clients: o.Concurrency, Kudos: kudos.Summary(), Minimal: mini.Summary(), Baseline: base.Summary(),
		KudosCPU: kudosCPU.Share(kudos.Ops), MinimalCPU: miniCPU.Share(mini.Ops), BaselineCPU: baseCPU.Share(base.Ops)}
	if kudos.Errors > 0 || mini.Errors > 0 || base.Errors > 0 {
		return res, nil, fmt.Errorf("read path: %d failed requests (%s), %d failed minimal-service requests (%s), %d failed lookups (%s)",
			kudos.Errors, kudos.FirstError, mini.Errors, mini.FirstError, base.Errors, base.FirstError)
	}
	const name = "read path"
	rps := compared(name, fmt.Sprintf("requests/s (%d clients) vs minimal Fiber service", o.Concurrency), "/s", kudos.Rate(), mini.Rate())
	res.RatioMinimal = *rps.Ratio
	ref := compared(name, "requests/s vs the query alone (pgx, reference)", "/s", kudos.Rate(), base.Rate())
	res.Ratio = *ref.Ratio
	p99 := ms(kudos.Percentile(0.99))
	rows := []Row{
		rps.target("ratio ≥ 0.8", res.RatioMinimal >= 0.8),
		perCPU(name, "requests per CPU-second vs minimal (neighbours excluded)", res.KudosCPU, res.MinimalCPU),
		compared(name, "p50 vs minimal", "ms", ms(kudos.Percentile(0.5)), ms(mini.Percentile(0.5))),
		compared(name, "p99 vs minimal", "ms", p99, ms(mini.Percentile(0.99))).target("≤ 15 ms", p99 <= 15),
		compared(name, "CPU/request: api vs minimal service", "ms", res.KudosCPU.APIMs, res.MinimalCPU.APIMs),
		compared(name, "CPU/request: Postgres vs minimal's", "ms", res.KudosCPU.PostgresMs, res.MinimalCPU.PostgresMs),
		compared(name, "CPU/request: HTTP load generator vs minimal's", "ms", res.KudosCPU.BenchMs, res.MinimalCPU.BenchMs),
		ref,
		perCPU(name, "requests per CPU-second vs the query alone", res.KudosCPU, res.BaselineCPU),
		compared(name, "p99 vs the query alone", "ms", p99, ms(base.Percentile(0.99))),
		compared(name, "CPU/request: api vs pgx caller", "ms", res.KudosCPU.APIMs, res.BaselineCPU.BenchMs),
		compared(name, "CPU taken by other work: kudos vs minimal rounds", "%", res.KudosCPU.OtherPercent(), res.MinimalCPU.OtherPercent()),
	}
	return res, rows, nil
}
