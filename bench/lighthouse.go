package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// LighthousePage is one page's Lighthouse figures (mobile preset), as
// bench/ui/lighthouse-bench.mjs prints them: the medians of the runs that
// Lighthouse could measure, and every run in full.
type LighthousePage struct {
	URL            string            `json:"url"`
	Score          float64           `json:"score"`
	FCP            float64           `json:"fcp_ms"`
	LCP            float64           `json:"lcp_ms"`
	TBT            float64           `json:"tbt_ms"`
	SpeedIndex     float64           `json:"si_ms"`
	CLS            float64           `json:"cls"`
	Load1          float64           `json:"load1"`
	BenchmarkIndex float64           `json:"benchmark_index"`
	Runs           []json.RawMessage `json:"runs"`
}

// LighthouseResult are the figures of the Lighthouse benchmark.
type LighthouseResult struct {
	Lighthouse string                     `json:"lighthouse"`
	CPU        string                     `json:"cpu"`
	Pages      map[string]*LighthousePage `json:"pages"`
}

// lighthousePages are the pages measured, in the table's order.
var lighthousePages = []string{"signin", "dashboard", "billing", "team"}

// Lighthouse runs Lighthouse's performance category on the mobile preset
// against /signin and a signed-in owner's dashboard, billing and team pages
// (issue 37 item 9), each o.LighthouseRuns times in a fresh headless
// Chromium, and reports the median score, FCP, LCP and total blocking time
// with the load average and Lighthouse's benchmarkIndex (the CPU's speed at
// that moment: the score depends on it). Lighthouse itself comes from the
// tools cache (bench/run.sh installs it there on first use), never from the
// project's packages; it runs only when named (-only lighthouse).
func Lighthouse(ctx context.Context, e *Env, o Options) (*LighthouseResult, []Row, error) {
	sess, _, err := uiSession(ctx, e, "lighthouse")
	if err != nil {
		return nil, nil, err
	}
	// The api compresses the UI with brotli once per start, in the
	// background (api/spa.go compressBrotli): a few seconds of CPU that fell
	// into the first page's first run and cost it 15-25 points. Lighthouse
	// starts once the api is done with it.
	if e.APIPID != 0 {
		if err := settled(e.APIPID, CPUTime, 500*time.Millisecond, 0.1, time.Minute); err != nil {
			return nil, nil, fmt.Errorf("lighthouse: the api did not settle: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", e.LighthouseScript)
	cmd.Env = append(os.Environ(), "BENCH_BASE_URL="+e.BaseURL, "BENCH_UI_SESSION="+string(sess),
		"BENCH_LH_RUNS="+strconv.Itoa(o.LighthouseRuns), "BENCH_LH_CPU="+o.LighthouseCPU, "CHROMIUM="+e.Chromium)
	// Interrupted, not killed, on a timeout: the script then stops its Chromium.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("lighthouse: node %s: %w", e.LighthouseScript, err)
	}
	var res LighthouseResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return nil, nil, fmt.Errorf("lighthouse: %w in %q", err, out.String())
	}
	const name = "lighthouse"
	var rows []Row
	for _, p := range lighthousePages {
		pg := res.Pages[p]
		if pg == nil || pg.Score == 0 {
			var runs []string
			if pg != nil {
				for _, r := range pg.Runs {
					runs = append(runs, string(r))
				}
			}
			return &res, nil, fmt.Errorf("lighthouse: %s could not be measured: %s", p, strings.Join(runs, "; "))
		}
		label := fmt.Sprintf("%s (median of %d; load %.1f, benchmarkIndex %.0f)", p, len(pg.Runs), pg.Load1, pg.BenchmarkIndex)
		rows = append(rows,
			figure(name, label+": performance", "score", pg.Score).target("≥ 90", pg.Score >= 90),
			figure(name, p+": FCP", "ms", pg.FCP),
			figure(name, p+": LCP", "ms", pg.LCP).target("≤ 2500 ms", pg.LCP <= 2500),
			figure(name, p+": total blocking time", "ms", pg.TBT).target("≤ 200 ms", pg.TBT <= 200))
	}
	return &res, rows, nil
}
