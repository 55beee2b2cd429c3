//go:build faults

package faults_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"kudos/devstack"
	"kudos/internal/testimages"
	"kudos/storage/s3store"
)

// outage is how long a service stays away: issue 8's figures under make
// chaos, shorter ones in make test.
func outage(fast, chaos time.Duration) time.Duration {
	if long {
		return chaos
	}
	return fast
}

// accepted is any answer of the sandbox Pay button that took the event.
func accepted(a answer, err error) bool {
	return err == nil && (a.Status == 200 || a.Status == http.StatusSeeOther)
}

// killWhenActivityRuns kills the worker as soon as Temporal reports the
// activity started in the workflow, or when the workflow has closed, the
// moment has passed (past reports true) or limit passed (false: the
// activity was not caught running).
func killWhenActivityRuns(t *testing.T, workflowID, activityType string, past func() bool, limit time.Duration) bool {
	t.Helper()
	defer st.killWorker()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		d, err := st.temporalClient.DescribeWorkflowExecution(context.Background(), workflowID, "")
		if err == nil {
			for _, a := range d.PendingActivities {
				if a.ActivityType.GetName() == activityType && a.State == enumspb.PENDING_ACTIVITY_STATE_STARTED {
					return true
				}
			}
			if d.WorkflowExecutionInfo.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING || past() {
				return false
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// restartWorkerAtEnd makes sure a test that kills the worker leaves one
// running for the next test, whatever happens.
func restartWorkerAtEnd(t *testing.T) {
	t.Cleanup(func() {
		if st.worker == nil {
			if err := st.startWorker(); err != nil {
				t.Error(err)
			}
		}
	})
}

func TestWorkerKilledWhileACheckoutIsOpen(t *testing.T) {
	u := newUser(t, "kill-checkout")
	checkout := u.subscribe(t, "STARTER")
	restartWorkerAtEnd(t)
	st.killWorker()
	if a, err := pay(checkout); !accepted(a, err) {
		t.Fatalf("pay while the worker is down: %v %+v", err, a)
	}
	time.Sleep(2 * time.Second)
	if s := dbString(t, `SELECT show_status FROM subscriptions WHERE account_id = $1`, u.accountID); s != "processing" {
		t.Fatalf("without a worker the status moved to %s", s)
	}
	if err := st.startWorker(); err != nil {
		t.Fatal(err)
	}
	u.paidOnce(t, 90*time.Second)
}

func TestWorkerKilledWhileTheInvoicePDFRenders(t *testing.T) {
	u := newUser(t, "kill-pdf")
	checkout := u.subscribe(t, "STARTER")
	if a, err := pay(checkout); !accepted(a, err) {
		t.Fatalf("pay: %v %+v", err, a)
	}
	// Rendering takes milliseconds: look for the activity as often as
	// possible and kill the worker the moment it is seen.
	restartWorkerAtEnd(t)
	hit := killWhenActivityRuns(t, "subscription:"+u.accountID, "RenderInvoicePDF", func() bool {
		return dbInt(t, `SELECT count(*) FROM invoices WHERE account_id = $1 AND pdf_key IS NOT NULL`, u.accountID) > 0
	}, 60*time.Second)
	rendered := dbInt(t, `SELECT count(*) FROM invoices WHERE account_id = $1 AND pdf_key IS NOT NULL`, u.accountID)
	t.Logf("worker killed %s rendering, with the PDF %s", map[bool]string{true: "while", false: "after"}[hit],
		map[bool]string{true: "already stored", false: "not stored yet"}[rendered == 1])
	if err := st.startWorker(); err != nil {
		t.Fatal(err)
	}
	u.paidOnce(t, 90*time.Second)
	inv := dbString(t, `SELECT id::text FROM invoices WHERE account_id = $1`, u.accountID)
	link := must(t, 200, "POST", "/v1/accounts/"+u.accountID+"/invoices/"+inv+"/download", nil, u.token).str("presigned_url")
	res, err := httpClient.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var head [4]byte
	_, _ = res.Body.Read(head[:])
	if res.StatusCode != 200 || string(head[:]) != "%PDF" {
		t.Fatalf("PDF download: %d %q", res.StatusCode, head)
	}
}

func TestWorkerKilledWhileALogoIsProcessed(t *testing.T) {
	u := newUser(t, "kill-logo")
	path := "/v1/accounts/" + u.accountID + "/upload-logo"
	png := testimages.NoisePNG(1800, 1800)
	link := must(t, 200, "POST", path, map[string]any{"filename": "logo.png", "size": len(png)}, u.token).str("presigned_url")
	req, _ := http.NewRequest("PUT", link, bytes.NewReader(png))
	req.Header.Set("Content-Type", "image/png")
	res, err := httpClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("upload: %v %v", err, res)
	}
	_ = res.Body.Close()
	must(t, 200, "PUT", path, nil, u.token)
	// Kill the worker while its processing activity runs: another worker
	// takes it over after the heartbeat timeout.
	restartWorkerAtEnd(t)
	hit := killWhenActivityRuns(t, "logo:"+u.accountID, "ProcessLogo", func() bool {
		return !strings.HasPrefix(dbString(t, `SELECT img_url FROM accounts WHERE id = $1`, u.accountID), "tmp/")
	}, 30*time.Second)
	if !hit {
		t.Log("ProcessLogo was never seen running (it finished between two looks): the worker was killed after it")
	}
	if err := st.startWorker(); err != nil {
		t.Fatal(err)
	}
	var img string
	eventually(t, 90*time.Second, "the logo to be published", func() bool {
		img = dbString(t, `SELECT img_url FROM accounts WHERE id = $1`, u.accountID)
		return strings.HasPrefix(img, "public/")
	})
	store, err := s3store.New(context.Background(), s3store.Config{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", st.httpPort+1000),
		Bucket: devstack.S3Bucket, AccessKeyID: devstack.S3AccessKey, SecretAccessKey: devstack.S3SecretKey, PathStyle: true})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the temporary object to be deleted", func() bool {
		keys, err := store.List(context.Background(), "tmp/logos/"+u.accountID+"/")
		return err == nil && len(keys) == 0
	})
	if keys, err := store.List(context.Background(), "public/logos/"+u.accountID+"/"); err != nil || len(keys) != 1 || keys[0] != img {
		t.Fatalf("public logos %v (%v), img_url %s", keys, err, img)
	}
}

func TestTemporalStoppedWhilePaymentEventsArrive(t *testing.T) {
	var users []user
	var checkouts []string
	for range 3 {
		u := newUser(t, "temporal-down")
		users = append(users, u)
		checkouts = append(checkouts, u.subscribe(t, "STARTER"))
	}
	// The runs the checkouts opened must still be there after the restart:
	// the server kept its state (in its file, or in Postgres with
	// KUDOS_TEMPORAL_PERSISTENCE=postgres). Payments alone would not show a
	// lost state: Update-with-Start would open fresh runs.
	runs := map[string]string{}
	for _, u := range users {
		id := "subscription:" + u.accountID
		d, err := st.temporalClient.DescribeWorkflowExecution(context.Background(), id, "")
		if err != nil {
			t.Fatal(err)
		}
		runs[id] = d.WorkflowExecutionInfo.Execution.RunId
	}
	stopping := time.Now()
	st.stopTemporal()
	t.Logf("Temporal stopped in %v", time.Since(stopping).Round(100*time.Millisecond))
	t.Cleanup(func() {
		if st.temporal == nil {
			_ = st.startTemporal()
		}
	})
	down := time.Now()
	for i, c := range checkouts {
		if a, err := pay(c); !accepted(a, err) {
			t.Fatalf("pay %d while Temporal is down: %v %+v", i, err, a)
		}
	}
	// Sign-ups go on too: their mail waits in the outbox.
	late := signup(t, "temporal-down-signup")
	var accounts []string
	for _, u := range users {
		accounts = append(accounts, u.accountID)
	}
	if n := dbInt(t, `SELECT count(*) FROM payment_events WHERE account_id::text = ANY($1)`, accounts); n != 3 {
		t.Fatalf("%d events stored while Temporal is down, want 3", n)
	}
	time.Sleep(outage(10*time.Second, 30*time.Second) - time.Since(down))
	starting := time.Now()
	if err := st.startTemporal(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Temporal up again in %v", time.Since(starting).Round(100*time.Millisecond))
	for _, u := range users {
		u.paidOnce(t, 3*time.Minute)
	}
	for id, run := range runs {
		if _, err := st.temporalClient.DescribeWorkflowExecution(context.Background(), id, run); err != nil {
			t.Fatalf("run %s of %s, started before the outage, is gone after it: %v", run, id, err)
		}
	}
	activate(t, late)
	time.Sleep(2 * time.Second)
	if n := len(mails(late)); n != 1 {
		t.Fatalf("%d activation mails after the outage, want 1", n)
	}
}

func TestPostgresRestartDuringLoad(t *testing.T) {
	u := newUser(t, "pg-restart")
	path := "/v1/accounts/" + u.accountID
	var mu sync.Mutex
	statuses := map[int]int{}
	var transport []error
	stopLoad := make(chan struct{})
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stopLoad:
					return
				default:
				}
				a, err := call("GET", path, nil, u.token)
				mu.Lock()
				if err != nil {
					transport = append(transport, err)
				} else {
					statuses[a.Status]++
				}
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	// Sign-ups during the restart: each is all or nothing.
	var signups []answer
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 4 {
			a, err := call("POST", "/v1/auth/signup", map[string]any{"firstname": "Ada", "lastname": "Lovelace",
				"email": fmt.Sprintf("pg-restart-%d-%d@example.com", time.Now().UnixNano(), i), "password": "Secret1!",
				"opt_in_marketing": false, "opt_in_terms_of_use": true, "preferred_language": "en", "root_domain": st.baseURL}, "")
			if err == nil {
				mu.Lock()
				signups = append(signups, a)
				mu.Unlock()
			}
			time.Sleep(time.Second)
		}
	}()
	time.Sleep(time.Second)
	if err := st.restartPostgres(outage(3*time.Second, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	// It recovers on its own: reads answer 200 again without a restart.
	eventually(t, 30*time.Second, "reads to succeed after the restart", func() bool {
		a, err := call("GET", path, nil, u.token)
		return err == nil && a.Status == 200
	})
	time.Sleep(time.Second)
	close(stopLoad)
	wg.Wait()
	t.Logf("answers during the restart: %v", statuses)
	for status, n := range statuses {
		if status != 200 && status != 503 {
			t.Errorf("%d answers with status %d: only 200 or 503 are right", n, status)
		}
	}
	if statuses[503] == 0 {
		t.Error("no 503 while Postgres was down: was it restarted?")
	}
	if len(transport) > 0 {
		t.Errorf("%d requests failed in transport, e.g. %v", len(transport), transport[0])
	}
	for _, a := range signups {
		if a.Status != 201 && a.Status != 503 {
			t.Errorf("sign-up during the restart: %d %s", a.Status, a.Raw)
		}
	}
	// No half-written rows: every user has an account, membership and
	// subscription; every sign-up queued its mail.
	if n := dbInt(t, `SELECT count(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id)`); n != 0 {
		t.Errorf("%d users without a membership", n)
	}
	if n := dbInt(t, `SELECT count(*) FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.account_id = a.id)`); n != 0 {
		t.Errorf("%d accounts without a subscription", n)
	}
	if n := dbInt(t, `SELECT count(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.kind = 'mail' AND o.payload->>'to' = u.email)`); n != 0 {
		t.Errorf("%d users whose activation mail was never queued", n)
	}
}

func TestSMTPRefusingThenDeliversOnce(t *testing.T) {
	must(t, 204, "POST", "/dev/mailbox/refusing", map[string]any{"refusing": true}, "")
	refusing := true
	defer func() {
		if refusing {
			_, _ = call("POST", "/dev/mailbox/refusing", map[string]any{"refusing": false}, "")
		}
	}()
	start := time.Now()
	emails := []string{signup(t, "smtp-down"), signup(t, "smtp-down")}
	time.Sleep(outage(15*time.Second, 2*time.Minute) - time.Since(start))
	for _, e := range emails {
		if n := len(mails(e)); n != 0 {
			t.Fatalf("%d mails to %s while SMTP refused", n, e)
		}
	}
	must(t, 204, "POST", "/dev/mailbox/refusing", map[string]any{"refusing": false}, "")
	refusing = false
	// The mail workflow retries with exponential backoff (1 s doubling):
	// after a 2-minute outage the next attempt may be 2 minutes away.
	for _, e := range emails {
		activateWithin(t, e, outage(time.Minute, 5*time.Minute))
	}
	time.Sleep(3 * time.Second)
	for _, e := range emails {
		if n := len(mails(e)); n != 1 {
			t.Errorf("%d mails to %s, want exactly 1", n, e)
		}
	}
}

func TestSamePaymentEventFiveTimesAndOutOfOrder(t *testing.T) {
	u := newUser(t, "duplicates")
	checkout := u.subscribe(t, "STARTER")
	var wg sync.WaitGroup
	results := make([]answer, 5)
	errs := make([]error, 5)
	for i := range 5 {
		wg.Add(1)
		go func() { defer wg.Done(); results[i], errs[i] = pay(checkout) }()
	}
	wg.Wait()
	ok := 0
	for i := range 5 {
		if accepted(results[i], errs[i]) {
			ok++
		} else if errs[i] != nil || results[i].Status >= 500 {
			t.Errorf("pay %d: %v %d %s", i, errs[i], results[i].Status, results[i].Raw)
		}
	}
	if ok == 0 {
		t.Fatal("no Pay press was accepted")
	}
	// A late Fail for the same checkout, after it was paid: out of order.
	if a, err := call("POST", "/sandbox/checkout/"+checkout+"/fail", nil, ""); err != nil || a.Status >= 500 {
		t.Fatalf("late fail: %v %+v", err, a)
	}
	u.paidOnce(t, 90*time.Second)
	time.Sleep(2 * time.Second)
	if s := dbString(t, `SELECT show_status FROM subscriptions WHERE account_id = $1`, u.accountID); s != "active" {
		t.Fatalf("after the late fail: %s", s)
	}
	u.paidOnce(t, time.Second)
}
