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

// UIResult are the figures of the UI benchmark, as bench/ui/ui-bench.mjs
// prints them.
type UIResult struct {
	Chromium         string    `json:"chromium"`
	Signin           PageJS    `json:"signin"`
	Dashboard        *PageJS   `json:"dashboard"`
	LCPSignin        []float64 `json:"lcp_signin_ms"`
	LCPSigninMedian  float64   `json:"lcp_signin_median_ms"`
	LCPSigninElement string    `json:"lcp_signin_element"`
	LCPBaseline      []float64 `json:"lcp_baseline_ms"`
	LCPBaselineMed   float64   `json:"lcp_baseline_median_ms"`
}

// PageJS is the JavaScript one page load fetched.
type PageJS struct {
	URL       string   `json:"url"`
	Files     int      `json:"files"`
	RawBytes  int      `json:"raw_bytes"`
	GzipBytes int      `json:"gzip_bytes"`
	WireBytes int      `json:"wire_bytes"`
	Encodings []string `json:"encodings"`
	Largest   []string `json:"largest"`
	Errors    []string `json:"errors"`
}

// UI measures the JavaScript loaded for /signin and for the dashboard, and
// the largest contentful paint of /signin against a static page, in
// headless Chromium (bench/ui/ui-bench.mjs, run with Node).
func UI(ctx context.Context, e *Env, o Options) (*UIResult, []Row, error) {
	members, err := e.CreateAccounts(ctx, AccountSpec{Prefix: "ui", N: 1, TrialExpiresAt: time.Now().Add(14 * 24 * time.Hour)})
	if err != nil {
		return nil, nil, err
	}
	tokens, err := e.SignIn(ctx, members)
	if err != nil {
		return nil, nil, err
	}
	t := tokens[0]
	sess, _ := json.Marshal(map[string]string{"token": t.Token, "token_expiry": t.Expiry.Format(time.RFC3339),
		"account_id": t.AccountID.String(), "email": t.Email})
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", e.UIScript)
	cmd.Env = append(os.Environ(), "BENCH_BASE_URL="+e.BaseURL, "BENCH_UI_SESSION="+string(sess),
		"BENCH_LCP_RUNS="+strconv.Itoa(o.LCPRuns), "CHROMIUM="+e.Chromium)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, nil, fmt.Errorf("ui: node %s: %w", e.UIScript, err)
	}
	var res UIResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return nil, nil, fmt.Errorf("ui: %w in %q", err, out.String())
	}
	if len(res.Signin.Errors) > 0 || res.Dashboard == nil || len(res.Dashboard.Errors) > 0 {
		return &res, nil, fmt.Errorf("ui: the pages did not load cleanly: %+v %+v", res.Signin, res.Dashboard)
	}
	if !strings.HasPrefix(res.Dashboard.URL, "/dashboard/"+t.AccountID.String()) {
		return &res, nil, fmt.Errorf("ui: the dashboard redirected to %s", res.Dashboard.URL)
	}
	const name = "ui"
	const kb = 1000.0
	signinKB := float64(res.Signin.GzipBytes) / kb
	rows := []Row{
		figure(name, fmt.Sprintf("/signin JS, gzip (%d files)", res.Signin.Files), "KB", signinKB).target("≤ 150 KB", signinKB <= 150),
		figure(name, "/signin JS, as served", "KB", float64(res.Signin.WireBytes)/kb),
		figure(name, fmt.Sprintf("dashboard JS, gzip (%d files)", res.Dashboard.Files), "KB", float64(res.Dashboard.GzipBytes)/kb),
		figure(name, "dashboard JS, as served", "KB", float64(res.Dashboard.WireBytes)/kb),
		compared(name, "/signin LCP vs static page (median)", "ms", res.LCPSigninMedian, res.LCPBaselineMed).
			target("≤ 1000 ms", res.LCPSigninMedian <= 1000),
	}
	return &res, rows, nil
}
