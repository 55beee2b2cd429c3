package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"kudos"
	"kudos/activities"
	"kudos/api"
	"kudos/app"
	"kudos/auth"
	"kudos/config"
	"kudos/devstack"
	"kudos/dispatch"
	"kudos/internal/testenv"
	"kudos/payment/sandbox"
	"kudos/storage/s3store"
	"kudos/store"
	"kudos/vatcheck"
	kworker "kudos/worker"
)

// inProcess bounds a request served in process (app.Test): Fiber's
// default, a second, is too short on a machine shared with -race and
// three browsers.
var inProcess = fiber.TestConfig{Timeout: 30 * time.Second}

// harness is an api on a fresh database, with the development OIDC provider.
type harness struct {
	t    *testing.T
	app  *fiber.App
	srv  *api.Server
	db   *store.DB
	oidc *devstack.OIDC

	// Set by withTemporal: the Temporal client, the task queue, the real
	// activities, the running worker, and the object storage.
	tc      client.Client
	queue   string
	acts    *activities.Activities
	worker  worker.Worker
	storage *s3store.Store
	// sent are the mails the worker delivered.
	sent *captureMailer
	// traceparent, when set, is sent with every request that names none
	// (the trace tests follow the requests of a test in one trace).
	traceparent string
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	holdBusyGate(t)
	cfg, err := config.LoadFrom(func(k string) string {
		return map[string]string{"KUDOS_PUBLIC_URL": "http://127.0.0.1:8080"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	db := testenv.DB(t)
	o, err := devstack.StartOIDC("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	srv := app.Services{Config: cfg, DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Payments: &sandbox.Provider{DB: db, BaseURL: "http://127.0.0.1:8080"}, VATChecker: &vatcheck.StandIn{Outage: 2 * time.Second}}.Server()
	srv.OIDC = &auth.OIDC{Issuer: o.Issuer(), ClientID: devstack.OIDCClientID, ClientSecret: devstack.OIDCClientSecret}
	srv.DevOIDC = o
	// argon2id at a tiny cost: these tests count hashes (Hasher.Runs), they
	// do not time them, and at the product's cost under -race seven
	// sign-in-heavy tests took 67 s instead of 30 s. auth's own tests keep
	// the product's cost.
	srv.Hasher = auth.NewHasherCost(0, testHashCost)
	srv.UI = fstest.MapFS{
		"index.html":        {Data: []byte("<!doctype html><title>Kudos</title>")},
		"assets/app-abc.js": {Data: []byte("console.log(1)")},
		"favicon.svg":       {Data: []byte("<svg/>")},
	}
	return &harness{t: t, app: api.New(srv), srv: srv, db: db, oidc: o, sent: &captureMailer{}}
}

// withTemporal gives the harness a real Temporal: a worker with the real
// activities on a task queue of its own, the dispatcher, and a running
// outbox relay. Billing periods are short so that renewals can be watched.
func (h *harness) withTemporal(period time.Duration) *harness {
	t := h.t
	tc := testenv.Temporal(t)
	if err := kworker.EnsureSearchAttributes(context.Background(), tc, "default"); err != nil {
		t.Fatal(err)
	}
	queue := "test-" + uuid.NewString()
	cfg := *h.srv.Config
	cfg.TaskQueue, cfg.BillingPeriod, cfg.CheckoutTTL = queue, period, time.Hour
	h.srv.Config = &cfg
	s3, err := devstack.StartS3("127.0.0.1:0", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s3.Close() })
	storage, err := s3store.New(context.Background(), s3store.Config{Endpoint: s3.Endpoint(), Bucket: devstack.S3Bucket,
		AccessKeyID: devstack.S3AccessKey, SecretAccessKey: devstack.S3SecretKey, PathStyle: true, PublicBaseURL: s3.Endpoint() + "/" + devstack.S3Bucket})
	if err != nil {
		t.Fatal(err)
	}
	if err := storage.EnsureBucket(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg.VATCheckRetry = time.Second
	services := app.Services{Config: &cfg, Log: h.srv.Log, DB: h.db, Temporal: tc, Payments: h.srv.Payments, Storage: storage,
		Mailer: h.sent, VATChecker: h.srv.VATChecker}
	h.srv.Temporal, h.srv.Storage, h.srv.Dispatcher = tc, storage, services.Dispatcher()
	relay := dispatch.NewRelay(h.db, h.srv.Deliver, h.srv.Log)
	relay.Poll = 100 * time.Millisecond
	acts := services.Activities(relay.Kick)
	h.tc, h.queue, h.acts, h.storage = tc, queue, acts, storage
	h.worker = h.startWorker(acts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); relay.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	h.srv.Outbox = relay
	srv := *h.srv
	srv.Registry = nil
	h.app = api.New(&srv)
	return h
}

// startWorker starts another worker on the harness's task queue with acts;
// it stops at the end of the test unless the test stops it first.
func (h *harness) startWorker(acts *activities.Activities) worker.Worker {
	w := kworker.New(h.tc, h.queue, acts)
	if err := w.Start(); err != nil {
		h.t.Fatal(err)
	}
	var once sync.Once
	stop := w.Stop
	h.t.Cleanup(func() { once.Do(stop) })
	return &stoppable{Worker: w, once: &once}
}

// stoppable is a worker whose Stop may be called by a test and again at
// its end.
type stoppable struct {
	worker.Worker
	once *sync.Once
}

// Stop stops the worker once.
func (s *stoppable) Stop() { s.once.Do(s.Worker.Stop) }

// captureMailer accepts mails and keeps them.
type captureMailer struct {
	mu   sync.Mutex
	msgs []kudos.Message
}

// Send implements kudos.MailSender.
func (m *captureMailer) Send(_ context.Context, msg kudos.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
	return nil
}

// to returns the messages delivered to address, oldest first.
func (m *captureMailer) to(address string) []kudos.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []kudos.Message
	for _, msg := range m.msgs {
		if msg.To == address {
			out = append(out, msg)
		}
	}
	return out
}

// purposes returns the purposes of the messages delivered to address.
func (m *captureMailer) purposes(address string) []kudos.MailPurpose {
	var out []kudos.MailPurpose
	for _, msg := range m.to(address) {
		out = append(out, msg.Purpose)
	}
	return out
}

// eventually polls cond until it holds or 20 s pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	eventuallyWithin(t, 20*time.Second, what, cond)
}

// eventuallyWithin polls cond until it holds or timeout passes.
func eventuallyWithin(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// response is a decoded answer.
type response struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    string
}

// errorCode and field read the ARCHITECTURE §4 error shape.
func (r response) errorCode() string {
	e, _ := r.Body["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func (r response) field(name string) string {
	e, _ := r.Body["error"].(map[string]any)
	f, _ := e["fields"].(map[string]any)
	v, _ := f[name].(string)
	return v
}

func (r response) str(name string) string {
	v, _ := r.Body[name].(string)
	return v
}

// do sends a request; body may be a string (sent raw) or a value (JSON).
// The exchange is checked against api/openapi.yaml (checkContract).
func (h *harness) do(method, path string, body any, token string, headers ...string) response {
	h.t.Helper()
	var rd io.Reader
	var sent []byte
	switch b := body.(type) {
	case nil:
	case string:
		sent = []byte(b)
		rd = strings.NewReader(b)
	default:
		sent, _ = json.Marshal(b)
		rd = bytes.NewReader(sent)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	// A header named twice is sent as two lines (X-Forwarded-For through
	// two proxies); /dev is reached as a developer's machine reaches it.
	if strings.HasPrefix(path, "/dev/") {
		req.Host = "127.0.0.1:8080"
	}
	if h.traceparent != "" {
		req.Header.Set("Traceparent", h.traceparent)
	}
	named := map[string]bool{}
	for i := 0; i+1 < len(headers); i += 2 {
		if k := http.CanonicalHeaderKey(headers[i]); k == "Host" {
			req.Host = headers[i+1]
		} else if named[k] {
			req.Header.Add(k, headers[i+1])
		} else {
			req.Header.Set(k, headers[i+1])
			named[k] = true
		}
	}
	res, err := h.app.Test(req, inProcess)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := response{Status: res.StatusCode, Header: res.Header, Raw: string(raw)}
	_ = json.Unmarshal(raw, &out.Body)
	h.checkContract(method, path, req.Header, sent, out)
	return out
}

// expect fails unless r has status (and, for errors, the one error shape).
func (h *harness) expect(r response, status int) response {
	h.t.Helper()
	if r.Status != status {
		h.t.Fatalf("status %d, want %d: %s", r.Status, status, r.Raw)
	}
	if status >= 400 {
		e, ok := r.Body["error"].(map[string]any)
		if !ok || e["status"] != float64(status) || e["code"] == "" || e["message"] == "" {
			h.t.Fatalf("error answer not in the one shape: %s", r.Raw)
		}
	}
	return r
}

// signupBody is a valid sign-up payload for email.
func signupBody(email string) map[string]any {
	return map[string]any{"firstname": "Ada", "lastname": "Lovelace", "email": email, "password": "Secret1!",
		"opt_in_marketing": false, "opt_in_terms_of_use": true, "preferred_language": "en", "root_domain": "http://127.0.0.1:8080",
		"browser_key": testBrowserKey}
}

// testBrowserKey is the browser key of the test's "browser": sent with its
// sign-ups and activations, so that activating signs it in (issue 27 item 4).
// testHashCost is the api tests' argon2id cost (see newHarness): 64 KiB, one pass.
var testHashCost = auth.Cost{MemoryKiB: 64, Time: 1}

const testBrowserKey = "dGVzdC1icm93c2VyLXRlc3QtYnJvd3Nlci10ZXN0LWI"

// lastMail returns the newest queued mail request to address (from the
// outbox), with the link the mail activity will build for it.
func (h *harness) lastMail(to string) kudos.MailRequest {
	h.t.Helper()
	return h.lastMailOf(to, "")
}

// lastMailOf is the last mail of purpose (any purpose when "") sent to to,
// with its link: a short trial's reminder may follow the activation mail
// before a test reads it.
func (h *harness) lastMailOf(to string, purpose kudos.MailPurpose) kudos.MailRequest {
	h.t.Helper()
	h.deliverQueued() // a reset request queues its work (issue 27 item 8): its mail comes from that
	var payload []byte
	err := h.db.Pool.QueryRow(context.Background(), `SELECT payload FROM outbox WHERE kind = 'mail' AND payload->>'to' = $1
		AND ($2 = '' OR payload->>'purpose' = $2) ORDER BY id DESC LIMIT 1`, to, string(purpose)).Scan(&payload)
	if err != nil {
		h.t.Fatalf("no %s mail to %s: %v", purpose, to, err)
	}
	var m kudos.MailRequest
	_ = json.Unmarshal(payload, &m)
	m.Link, _ = h.srv.Tokens.MailLink(h.srv.Config.PublicURL, m)
	return m
}

func (h *harness) mailCount(to string) int {
	var n int
	_ = h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE kind = 'mail' AND payload->>'to' = $1`, to).Scan(&n)
	return n
}

// tokenFrom extracts the token of a link.
func tokenFrom(link string) string {
	_, tok, _ := strings.Cut(link, "token=")
	return tok
}

// signedUpUser signs up and activates email; it returns the session token and account id.
func (h *harness) signedUpUser(email string) (token, accountID string) {
	h.t.Helper()
	h.expect(h.do("POST", "/v1/auth/signup", signupBody(email), ""), 201)
	r := h.expect(h.do("PUT", "/v1/auth/activate-user", activationBody(tokenFrom(h.lastMailOf(email, kudos.MailActivation).Link)), ""), 201)
	return r.str("token"), r.str("account_id")
}

// newHarnessFrom builds a fresh app from h's (possibly changed) server.
// Its rate limits start afresh (they live in Postgres, shared by the apps of
// one database, as by the replicas of one deployment).
func newHarnessFrom(t *testing.T, h *harness) *harness {
	if _, err := h.db.Pool.Exec(context.Background(), `DELETE FROM rate_limits`); err != nil {
		t.Fatal(err)
	}
	srv := *h.srv
	srv.Registry = nil
	return &harness{t: t, app: api.New(&srv), srv: &srv, db: h.db, oidc: h.oidc}
}

// apiKinds are the outbox entries the api does itself (Server.Deliver).
var apiKinds = []string{dispatch.KindPasswordResetRequest, dispatch.KindActivationRequest}

// deliverQueued does the api's own queued work (Server.Deliver: reset and
// activation requests) in a harness whose relay does not run (entries for Temporal
// stay where they are), or waits for the running relay to do it.
func (h *harness) deliverQueued() {
	h.t.Helper()
	ctx := context.Background()
	if h.tc != nil {
		eventually(h.t, "the relay to do the queued reset and activation requests", func() bool {
			var n int
			_ = h.db.Pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE kind = ANY($1) AND delivered_at IS NULL`,
				apiKinds).Scan(&n)
			return n == 0
		})
		return
	}
	rows, err := h.db.Pool.Query(ctx, `SELECT id, key, kind, workflow_id, payload, attempts FROM outbox
		WHERE kind = ANY($1) AND delivered_at IS NULL ORDER BY id`, apiKinds)
	if err != nil {
		h.t.Fatal(err)
	}
	queued, err := pgx.CollectRows(rows, pgx.RowToStructByPos[store.OutboxRow])
	if err != nil {
		h.t.Fatal(err)
	}
	for _, row := range queued {
		if err := h.srv.Deliver(ctx, row); err != nil {
			h.t.Fatalf("queued %s: %v", row.Key, err)
		}
		if _, err := h.db.Pool.Exec(ctx, `UPDATE outbox SET delivered_at = now() WHERE id = $1`, row.ID); err != nil {
			h.t.Fatal(err)
		}
	}
}

// activationBody is the body of PUT /v1/auth/activate-user for token,
// opened in the browser that signed up.
func activationBody(token string) map[string]any {
	return map[string]any{"token": token, "browser_key": testBrowserKey}
}
