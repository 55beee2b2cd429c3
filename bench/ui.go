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
	// A signed-in customer's fresh load of the dashboard: navigation to the
	// frame that paints the shell with the account (the plan badge), its
	// LCP, and switches between the two tabs of the billing page.
	DashboardShell       []float64 `json:"dashboard_shell_ms"`
	DashboardShellMedian float64   `json:"dashboard_shell_median_ms"`
	DashboardLCP         []float64 `json:"dashboard_lcp_ms"`
	DashboardLCPMedian   float64   `json:"dashboard_lcp_median_ms"`
	TabSwitch            []float64 `json:"tab_switch_ms"`
	TabSwitchMedian      float64   `json:"tab_switch_median_ms"`
	DashboardErrors      []string  `json:"dashboard_errors"`
}

// PageJS is the JavaScript one page load fetched.
type PageJS struct {
	URL       string   `json:"url"`
	Files     int      `json:"files"`
	RawBytes  int      `json:"raw_bytes"`
	GzipBytes int      `json:"gzip_bytes"`
	WireBytes int      `json:"wire_bytes"`
	Encodings []string `json:"encodings"`
	// PrefetchFiles and PrefetchGzipBytes are the scripts fetched after the
	// page was drawn (prefetch for the next page), not counted above.
	PrefetchFiles     int      `json:"prefetch_files"`
	PrefetchGzipBytes int      `json:"prefetch_gzip_bytes"`
	Largest           []string `json:"largest"`
	Errors            []string `json:"errors"`
}

// uiSession makes a trial account whose owner is signed in, and returns
// that session as the browser scripts take it (BENCH_UI_SESSION: what the
// app keeps in its storage after a sign-in), with the account's id.
func uiSession(ctx context.Context, e *Env, prefix string) ([]byte, string, error) {
	members, err := e.CreateAccounts(ctx, AccountSpec{Prefix: prefix, N: 1, TrialExpiresAt: time.Now().Add(14 * 24 * time.Hour)})
	if err != nil {
		return nil, "", err
	}
	tokens, err := e.SignIn(ctx, members)
	if err != nil {
		return nil, "", err
	}
	t := tokens[0]
	sess, err := json.Marshal(map[string]string{"token": t.Token, "token_expiry": t.Expiry.Format(time.RFC3339),
		"account_id": t.AccountID.String(), "email": t.Email})
	return sess, t.AccountID.String(), err
}

// UI measures the JavaScript loaded for /signin and for the dashboard, the
// largest contentful paint of /signin against a static page, and a signed-in
// customer's dashboard load and tab switch, in headless Chromium
// (bench/ui/ui-bench.mjs, run with Node).
func UI(ctx context.Context, e *Env, o Options) (*UIResult, []Row, error) {
	sess, accountID, err := uiSession(ctx, e, "ui")
	if err != nil {
		return nil, nil, err
	}
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
	if len(res.Signin.Errors) > 0 || res.Dashboard == nil || len(res.Dashboard.Errors) > 0 || len(res.DashboardErrors) > 0 {
		return &res, nil, fmt.Errorf("ui: the pages did not load cleanly: %+v %+v", res.Signin, res.Dashboard)
	}
	if !strings.HasPrefix(res.Dashboard.URL, "/dashboard/"+accountID) {
		return &res, nil, fmt.Errorf("ui: the dashboard redirected to %s", res.Dashboard.URL)
	}
	const name = "ui"
	const kb = 1000.0
	signinKB := float64(res.Signin.GzipBytes) / kb
	dashKB := float64(res.Dashboard.GzipBytes) / kb
	rows := []Row{
		figure(name, fmt.Sprintf("/signin JS, gzip (%d files)", res.Signin.Files), "KB", signinKB).target("≤ 150 KB", signinKB <= 150),
		figure(name, "/signin JS, as served ("+strings.Join(res.Signin.Encodings, ", ")+")", "KB", float64(res.Signin.WireBytes)/kb),
		figure(name, fmt.Sprintf("/signin: dashboard code prefetched once drawn, gzip (%d files)", res.Signin.PrefetchFiles), "KB",
			float64(res.Signin.PrefetchGzipBytes)/kb),
		figure(name, fmt.Sprintf("dashboard JS, gzip (%d files)", res.Dashboard.Files), "KB", dashKB).target("≤ 180 KB", dashKB <= 180),
		figure(name, "dashboard JS, as served ("+strings.Join(res.Dashboard.Encodings, ", ")+")", "KB", float64(res.Dashboard.WireBytes)/kb),
		compared(name, "/signin LCP vs static page (median)", "ms", res.LCPSigninMedian, res.LCPBaselineMed).
			target("≤ 1000 ms", res.LCPSigninMedian <= 1000),
		figure(name, "signed in: navigation → dashboard shell with account painted (median)", "ms", res.DashboardShellMedian),
		figure(name, "signed in: dashboard LCP (median)", "ms", res.DashboardLCPMedian).target("≤ 1000 ms", res.DashboardLCPMedian <= 1000),
		figure(name, fmt.Sprintf("tab switch, hover then click (median of %d)", len(res.TabSwitch)), "ms", res.TabSwitchMedian).
			target("≤ 100 ms", res.TabSwitchMedian <= 100),
	}
	return &res, rows, nil
}
