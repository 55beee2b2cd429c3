package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"

	"kudos/auth"
)

// SigninResult are the figures of the sign-in benchmark.
type SigninResult struct {
	Clients       int     `json:"clients"`
	Users         int     `json:"users"`
	Addresses     int     `json:"client_addresses"`
	Argon2Params  string  `json:"argon2_params"`
	Saturation    Summary `json:"saturation"`
	Burst         Summary `json:"burst"`
	Baseline      Summary `json:"baseline_argon2"`
	Ratio         float64 `json:"ratio"`
	IdleRSSMiB    float64 `json:"api_idle_rss_mib"`
	PeakRSSMiB    float64 `json:"api_peak_rss_saturation_mib"`
	BurstRSSMiB   float64 `json:"api_peak_rss_burst_mib"`
	BoundRSSMiB   float64 `json:"api_rss_bound_mib"`
	UnboundRSSMiB float64 `json:"api_rss_if_unbounded_mib"`
	// CPU is where the CPU went per sign-in; BaselineCPU per hash.
	CPU         CPUShare `json:"cpu_per_signin"`
	BaselineCPU CPUShare `json:"baseline_cpu_per_hash"`
}

// Sign-in rate limits (api/limits.go, kept in Postgres) are per client
// address (30 a minute), per e-mail and client (10 per ten minutes) and per
// e-mail (50 per ten minutes). A real saturating load comes from
// many people on many addresses, and so does this one: every request of
// the benchmark uses one of signinUsers users in turn, and each loopback
// source address (127.77.x.y, all of 127/8 is local) serves requestsPerAddress
// requests, below both limits. Nothing in the api is relaxed.
const (
	signinUsers        = 400
	requestsPerAddress = 20
	signinPassword     = "Bench-password-1"
)

// Signin measures POST /v1/auth/signin at saturation (o.SigninConcurrency
// clients for o.Duration) and in one burst of o.Burst concurrent sign-ins,
// with the api's peak RSS in each. Its baseline is raw argon2id, with the
// parameters of the stored hashes, on one goroutine per CPU: sign-in can
// only be as fast as its password hash.
func Signin(ctx context.Context, e *Env, o Options) (*SigninResult, []Row, error) {
	hash, err := auth.NewHasher(1).Hash(ctx, signinPassword)
	if err != nil {
		return nil, nil, err
	}
	members, err := e.CreateAccounts(ctx, AccountSpec{Prefix: "signin", N: signinUsers, PasswordHash: hash,
		TrialExpiresAt: time.Now().Add(14 * 24 * time.Hour)})
	if err != nil {
		return nil, nil, err
	}
	clients := &addressPool{}
	defer clients.close()
	var offset int // requests made so far: the next ones use fresh addresses and users
	signin := func(ctx context.Context, i int) error {
		i += offset
		body, _ := json.Marshal(map[string]string{"email": members[i%len(members)].Email, "password": signinPassword})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.BaseURL+"/v1/auth/signin", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res, err := clients.client(i / requestsPerAddress).Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusCreated {
			return fmt.Errorf("POST /v1/auth/signin: %s %s", res.Status, strings.TrimSpace(string(b)))
		}
		return nil
	}
	if err := signin(ctx, 0); err != nil {
		return nil, nil, err
	}
	offset = 1
	res := &SigninResult{Clients: o.SigninConcurrency, Users: signinUsers, Argon2Params: argonParams(hash)}
	idle, _ := RSS(e.APIPID)
	res.IdleRSSMiB = mib(idle)

	argon, err := parseArgon(hash)
	if err != nil {
		return res, nil, err
	}
	// Saturation and baseline alternate in rounds, so that a noisy
	// neighbour slows both alike.
	_ = ResetPeakRSS(e.APIPID)
	sat, base := &Load{}, &Load{}
	var satCPU, baseCPU CPUSample
	slice := o.Duration / time.Duration(o.Rounds)
	for range o.Rounds {
		round, cpu := Measure(e.CPU(), func() *Load { return RunFor(ctx, o.SigninConcurrency, slice, signin) })
		offset += round.Ops
		sat.Add(round)
		satCPU = satCPU.Add(cpu)
		round, cpu = Measure(e.CPU(), func() *Load {
			return RunFor(ctx, runtime.NumCPU(), slice, func(context.Context, int) error { argon.hash(); return nil })
		})
		base.Add(round)
		baseCPU = baseCPU.Add(cpu)
	}
	peak, _ := PeakRSS(e.APIPID)
	res.Saturation, res.PeakRSSMiB, res.Baseline = sat.Summary(), mib(peak), base.Summary()
	res.CPU, res.BaselineCPU = satCPU.Share(sat.Ops), baseCPU.Share(base.Ops)

	_ = ResetPeakRSS(e.APIPID)
	burst := RunN(ctx, o.Burst, o.Burst, signin)
	offset += burst.Ops
	peak, _ = PeakRSS(e.APIPID)
	res.Burst, res.BurstRSSMiB = burst.Summary(), mib(peak)
	res.Addresses = offset/requestsPerAddress + 1
	if sat.Errors > 0 || burst.Errors > 0 {
		return res, nil, fmt.Errorf("sign-in: %d of %d failed at saturation (%s), %d of %d in the burst (%s)",
			sat.Errors, sat.Ops, sat.FirstError, burst.Errors, burst.Ops, burst.FirstError)
	}

	// Bounded: the api hashes at most one password per CPU at a time
	// (auth.Hasher), so the burst may cost a few hashes' memory (19 MiB
	// each, doubled by the garbage collector's headroom) over the idle
	// process, not one per request.
	hashMiB := float64(argon.memoryKiB) / 1024
	res.BoundRSSMiB = res.IdleRSSMiB + 4*float64(runtime.NumCPU())*hashMiB
	res.UnboundRSSMiB = res.IdleRSSMiB + float64(o.Burst)*hashMiB
	const name = "sign-in"
	rate := compared(name, fmt.Sprintf("sign-ins/s (%d clients) vs argon2id hashes/s", o.SigninConcurrency), "/s",
		sat.Rate(), base.Rate())
	res.Ratio = *rate.Ratio
	rows := []Row{
		rate.target("ratio ≥ 0.85", res.Ratio >= 0.85),
		perCPU(name, "sign-ins vs hashes per CPU-second", res.CPU, res.BaselineCPU),
		compared(name, "p99 at saturation vs one hash", "ms", ms(sat.Percentile(0.99)), ms(base.Percentile(0.99))),
		compared(name, "CPU/sign-in: api vs argon2id", "ms", res.CPU.APIMs, res.BaselineCPU.BenchMs),
		compared(name, "CPU taken by other work on the machine", "%", res.CPU.OtherPercent(), res.BaselineCPU.OtherPercent()),
		figure(name, fmt.Sprintf("burst of %d: all answered in", o.Burst), "s", burst.Elapsed.Seconds()),
		figure(name, fmt.Sprintf("burst of %d: p99", o.Burst), "ms", ms(burst.Percentile(0.99))),
		figure(name, "api peak RSS at saturation", "MiB", res.PeakRSSMiB),
		figure(name, fmt.Sprintf("api peak RSS, burst of %d", o.Burst), "MiB", res.BurstRSSMiB).
			target(fmt.Sprintf("bounded: ≤ %.0f MiB (unbounded: %.0f)", res.BoundRSSMiB, res.UnboundRSSMiB), res.BurstRSSMiB <= res.BoundRSSMiB),
	}
	return res, rows, nil
}

// addressPool hands out one HTTP client per loopback source address.
type addressPool struct {
	mu      sync.Mutex
	clients []*http.Client
}

// client returns the client bound to the k-th address 127.77.x.y.
func (p *addressPool) client(k int) *http.Client {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.clients) <= k {
		n := len(p.clients)
		ip := net.IPv4(127, 77, byte(n/250), byte(n%250+1))
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: 5 * time.Second}
		p.clients = append(p.clients, newHTTPClient(&http.Transport{DialContext: d.DialContext}))
	}
	return p.clients[k]
}

func (p *addressPool) close() {
	for _, c := range p.clients {
		c.CloseIdleConnections()
	}
}

// argonParams returns the "m=…,t=…,p=…" part of a PHC argon2id hash.
func argonParams(hash string) string {
	if parts := strings.Split(hash, "$"); len(parts) == 6 {
		return parts[3]
	}
	return ""
}

// argonConfig holds the argon2id parameters of a stored hash.
type argonConfig struct {
	memoryKiB, time uint32
	threads         uint8
}

// parseArgon reads the parameters of a PHC argon2id hash.
func parseArgon(hash string) (argonConfig, error) {
	var c argonConfig
	if _, err := fmt.Sscanf(argonParams(hash), "m=%d,t=%d,p=%d", &c.memoryKiB, &c.time, &c.threads); err != nil {
		return c, fmt.Errorf("sign-in baseline: parameters of %q: %w", argonParams(hash), err)
	}
	return c, nil
}

// hash computes one argon2id key with these parameters, as
// auth.Hasher.Verify does.
func (c argonConfig) hash() {
	argon2.IDKey([]byte(signinPassword), make([]byte, 16), c.time, c.memoryKiB, c.threads, 32)
}
