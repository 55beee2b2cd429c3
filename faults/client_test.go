//go:build faults

package faults_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var httpClient = &http.Client{Timeout: 30 * time.Second}

// answer is a decoded API answer.
type answer struct {
	Status int
	Body   map[string]any
	Raw    string
}

func (a answer) str(name string) string { s, _ := a.Body[name].(string); return s }

// call sends a JSON request to the api (accept JSON); err is a transport
// failure (refused connection, timeout), never an HTTP status.
func call(method, path string, body any, token string) (answer, error) {
	return callAt(st.baseURL, method, path, body, token)
}

// callAt is call on the api process at base (the scale-out test runs two).
func callAt(base, method, path string, body any, token string) (answer, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := httpClient.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	a := answer{Status: res.StatusCode, Raw: string(raw)}
	_ = json.Unmarshal(raw, &a.Body)
	return a, nil
}

// must sends a request that has to answer want.
func must(t *testing.T, want int, method, path string, body any, token string) answer {
	t.Helper()
	a, err := call(method, path, body, token)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if a.Status != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, a.Status, want, a.Raw)
	}
	return a
}

// eventually polls cond until it holds or limit passes.
func eventually(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s\n--- worker log ---\n%s\n--- api log ---\n%s",
				limit, what, st.logTail("worker"), st.logTail("api"))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var userSeq atomic.Int64

// user is a signed-up, activated member of a named account with a billing
// address, ready to subscribe.
type user struct {
	email, token, accountID string
}

// mails returns the texts of the mails the capture inbox holds for to.
func mails(to string) []string {
	res, err := httpClient.Get(st.baseURL + "/dev/mailbox?to=" + url.QueryEscape(to))
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	var box struct {
		Messages []struct {
			Text string `json:"text"`
		} `json:"messages"`
	}
	_ = json.NewDecoder(res.Body).Decode(&box)
	var out []string
	for _, m := range box.Messages {
		out = append(out, m.Text)
	}
	return out
}

// linkIn finds the first word of text containing marker.
func linkIn(text, marker string) string {
	for _, w := range strings.Fields(text) {
		if strings.Contains(w, marker) {
			return w
		}
	}
	return ""
}

// browserKey is the browser key the tests' sign-ups send: activating with
// it again signs in, as in the browser that signed up.
const browserKey = "ZmF1bHRzLWJyb3dzZXItZmF1bHRzLWJyb3dzZXItZmE"

func signup(t *testing.T, prefix string) string {
	t.Helper()
	email := fmt.Sprintf("%s-%d-%d@example.com", prefix, time.Now().UnixNano(), userSeq.Add(1))
	must(t, 201, "POST", "/v1/auth/signup", map[string]any{"firstname": "Ada", "lastname": "Lovelace", "email": email,
		"password": "Secret1!", "opt_in_marketing": false, "opt_in_terms_of_use": true, "preferred_language": "en",
		"root_domain": st.baseURL, "browser_key": browserKey}, "")
	return email
}

func activate(t *testing.T, email string) user {
	t.Helper()
	return activateWithin(t, email, 60*time.Second)
}

// activateWithin is activate waiting up to limit for the mail (after an
// SMTP outage, the next retry of the mail workflow may be minutes away).
func activateWithin(t *testing.T, email string, limit time.Duration) user {
	t.Helper()
	var link string
	eventually(t, limit, "the activation mail to "+email, func() bool {
		for _, m := range mails(email) {
			if link = linkIn(m, "confirm-email?token="); link != "" {
				return true
			}
		}
		return false
	})
	u, _ := url.Parse(link)
	a := must(t, 201, "PUT", "/v1/auth/activate-user", map[string]any{"token": u.Query().Get("token"), "browser_key": browserKey}, "")
	usr := user{email: email, token: a.str("token"), accountID: a.str("account_id")}
	must(t, 200, "PATCH", "/v1/accounts/"+usr.accountID, map[string]any{"name": "Analytical Engines"}, usr.token)
	must(t, 200, "PATCH", "/v1/accounts/"+usr.accountID+"/billing-address", map[string]any{
		"organization_name": "Analytical Engines", "street_and_number": "Main 1", "postal_code": "1000",
		"city": "Brussels", "region": "Brussels", "country": "nl_BE"}, usr.token)
	return usr
}

func newUser(t *testing.T, prefix string) user {
	t.Helper()
	return activate(t, signup(t, prefix))
}

// subscribe opens a sandbox checkout for plan and returns its id.
func (u user) subscribe(t *testing.T, plan string) string {
	t.Helper()
	href := must(t, 201, "POST", "/v1/accounts/"+u.accountID+"/subscription", map[string]any{"plan": plan}, u.token).str("checkout_href")
	i := strings.Index(href, "/sandbox/checkout/")
	if i < 0 {
		t.Fatalf("checkout_href %q", href)
	}
	return href[i+len("/sandbox/checkout/"):]
}

// pay presses the sandbox's Pay button.
func pay(checkoutID string) (answer, error) {
	return call("POST", "/sandbox/checkout/"+checkoutID+"/pay", nil, "")
}

// dbInt runs a query answering one integer.
func dbInt(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := st.db.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func dbString(t *testing.T, query string, args ...any) string {
	t.Helper()
	var s string
	if err := st.db.QueryRow(context.Background(), query, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return s
}

// paidOnce checks the account's state after one paid checkout: the plan
// active, exactly one invoice, PAID, numbered, with its PDF.
func (u user) paidOnce(t *testing.T, limit time.Duration) {
	t.Helper()
	eventually(t, limit, "the payment to be applied to "+u.email, func() bool {
		var status string
		_ = st.db.QueryRow(context.Background(), `SELECT show_status FROM subscriptions WHERE account_id = $1`, u.accountID).Scan(&status)
		return status == "active" && dbInt(t, `SELECT count(*) FROM invoices WHERE account_id = $1 AND pdf_key IS NOT NULL`, u.accountID) > 0
	})
	if plan := dbString(t, `SELECT plan FROM subscriptions WHERE account_id = $1`, u.accountID); plan != "STARTER" {
		t.Errorf("%s: plan %s", u.email, plan)
	}
	if n := dbInt(t, `SELECT count(*) FROM invoices WHERE account_id = $1`, u.accountID); n != 1 {
		t.Errorf("%s: %d invoices, want 1", u.email, n)
	}
	if n := dbInt(t, `SELECT count(*) FROM invoices WHERE account_id = $1 AND status = 'PAID' AND number IS NOT NULL`, u.accountID); n != 1 {
		t.Errorf("%s: %d numbered PAID invoices, want 1", u.email, n)
	}
	if n := dbInt(t, `SELECT count(*) FROM payment_events WHERE account_id = $1`, u.accountID); n != 1 {
		t.Errorf("%s: %d payment events stored, want 1", u.email, n)
	}
}
