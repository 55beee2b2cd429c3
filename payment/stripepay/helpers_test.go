package stripepay

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
)

// stripe-mock is started once, by the first test that needs it, and stopped
// by TestMain after the last one.
var mock struct {
	once sync.Once
	url  string
	err  error
	cmd  *exec.Cmd
	out  bytes.Buffer
}

func TestMain(m *testing.M) {
	code := m.Run()
	if mock.cmd != nil && mock.cmd.Process != nil {
		_ = mock.cmd.Process.Kill()
		_ = mock.cmd.Wait()
	}
	os.Exit(code)
}

// stripeMockURL returns the base URL of a running stripe-mock.
func stripeMockURL(t *testing.T) string {
	t.Helper()
	mock.once.Do(func() { mock.url, mock.err = startStripeMock() })
	if mock.err != nil {
		t.Fatal(mock.err)
	}
	return mock.url
}

func startStripeMock() (string, error) {
	bin := os.Getenv("KUDOS_TEST_STRIPE_MOCK")
	if bin == "" {
		return "", fmt.Errorf("KUDOS_TEST_STRIPE_MOCK is empty: it must name the stripe-mock binary; run via make test")
	}
	httpPort, err := freePort()
	if err != nil {
		return "", err
	}
	httpsPort, err := freePort()
	if err != nil {
		return "", err
	}
	// Both listeners get a free loopback port: left unset, the HTTPS one
	// would take the fixed default 12112 and clash with parallel runs.
	mock.cmd = exec.Command(bin,
		"-http-addr", fmt.Sprintf("127.0.0.1:%d", httpPort),
		"-https-addr", fmt.Sprintf("127.0.0.1:%d", httpsPort))
	mock.cmd.Stdout, mock.cmd.Stderr = &mock.out, &mock.out
	if err := mock.cmd.Start(); err != nil {
		return "", fmt.Errorf("start stripe-mock %s: %w", bin, err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		req, _ := http.NewRequest(http.MethodGet, base+"/v1/customers/cus_ping", nil)
		req.SetBasicAuth("sk_test_ping", "")
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base, nil
			}
		}
	}
	return "", fmt.Errorf("stripe-mock did not answer within 15s; its output:\n%s", mock.out.String())
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// request is one HTTP request the provider sent to Stripe.
type request struct {
	Method, Path   string
	IdempotencyKey string
	Form           url.Values // POST body or GET query
}

// canned is an answer the recorder gives instead of stripe-mock.
type canned struct {
	status int
	body   string
}

// recorder is the provider's HTTP transport in tests: it records every
// request and answers from canned (keyed "METHOD /path") or else forwards
// to stripe-mock, which keeps no state and cannot decline.
type recorder struct {
	mu     sync.Mutex
	reqs   []request
	canned map[string]canned
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := request{Method: req.Method, Path: req.URL.Path, IdempotencyKey: req.Header.Get("Idempotency-Key"), Form: req.URL.Query()}
	if req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(body) > 0 {
			if rec.Form, err = url.ParseQuery(string(body)); err != nil {
				return nil, err
			}
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, rec)
	c, ok := r.canned[req.Method+" "+req.URL.Path]
	r.mu.Unlock()
	if !ok {
		return http.DefaultTransport.RoundTrip(req)
	}
	return &http.Response{
		StatusCode: c.status,
		Header:     http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_test"}},
		Body:       io.NopCloser(strings.NewReader(c.body)),
		Request:    req,
	}, nil
}

// find returns the recorded requests to "METHOD /path".
func (r *recorder) find(method, path string) []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []request
	for _, q := range r.reqs {
		if q.Method == method && q.Path == path {
			out = append(out, q)
		}
	}
	return out
}

// memStore is an in-memory CustomerStore that counts saves.
type memStore struct {
	mu     sync.Mutex
	ids    map[uuid.UUID]string
	emails map[uuid.UUID]string
	saves  int
}

func (s *memStore) StripeCustomer(_ context.Context, accountID uuid.UUID) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[accountID], nil
}

func (s *memStore) SaveStripeCustomer(_ context.Context, accountID uuid.UUID, customerID, email string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids, s.emails = map[uuid.UUID]string{}, map[uuid.UUID]string{}
	}
	s.ids[accountID], s.emails[accountID] = customerID, email
	s.saves++
	return nil
}

func (s *memStore) StripeCustomerEmail(_ context.Context, accountID uuid.UUID) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emails[accountID], nil
}

func (s *memStore) SaveStripeCustomerEmail(_ context.Context, accountID uuid.UUID, email string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.emails == nil {
		s.emails = map[uuid.UUID]string{}
	}
	s.emails[accountID] = email
	return nil
}

const testWebhookSecret = "whsec_test_secret"

// newTestProvider returns a provider on stripe-mock with a recorder (whose
// canned answers may be set) and an empty store. It never retries, so that
// error cases fail at once.
func newTestProvider(t *testing.T, answers map[string]canned) (*Provider, *recorder, *memStore) {
	t.Helper()
	rec := &recorder{canned: answers}
	store := &memStore{}
	p, err := newProvider(Config{
		SecretKey:     "sk_test_kudos",
		WebhookSecret: testWebhookSecret,
		APIBaseURL:    stripeMockURL(t),
		Currency:      "EUR",
	}, store, &http.Client{Transport: rec, Timeout: 10 * time.Second}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return p, rec, store
}

// stripeError is the JSON body of a Stripe error answer.
func stripeError(typ, code, declineCode string) string {
	return fmt.Sprintf(`{"error":{"type":%q,"code":%q,"decline_code":%q,"message":"test","payment_intent":{"id":"pi_declined","object":"payment_intent","status":"requires_payment_method"}}}`, typ, code, declineCode)
}
