package stripepay

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// The provider reconciliation's list calls (issue 36 item 4).

// window is the reconciliation window the tests list.
var (
	windowSince = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	windowUntil = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
)

// TestLedgerListsOnStripeMock: the three list calls are ones Stripe's API
// accepts (stripe-mock checks every parameter against Stripe's OpenAPI
// spec): created[gte] and created[lt] of the window, pages of 100, the
// refunds' PaymentIntents expanded. stripe-mock's fixtures are not Kudos's
// (no account in their metadata): no payment or refund of Kudos's, and
// its event is one the intake does not read.
func TestLedgerListsOnStripeMock(t *testing.T) {
	p, rec, _ := newTestProvider(t, nil)
	ctx := context.Background()
	var events []kudos.ProviderEvent
	if err := p.ListEvents(ctx, windowSince, windowUntil, func(ev kudos.ProviderEvent) error { events = append(events, ev); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(events) == 0 || events[0].ID == "" || events[0].Type == "" {
		t.Fatalf("events listed: %+v", events)
	}
	for _, ev := range events {
		if pe, err := p.ReadEvent(ctx, ev); err != nil || pe != nil {
			t.Fatalf("stripe-mock's %s event read as %+v, %v; want nothing of interest", ev.Type, pe, err)
		}
	}
	payments, refunds := 0, 0
	if err := p.ListPayments(ctx, windowSince, windowUntil, func(kudos.ProviderPayment) error { payments++; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := p.ListRefunds(ctx, windowSince, windowUntil, func(kudos.ProviderRefund) error { refunds++; return nil }); err != nil {
		t.Fatal(err)
	}
	disputes := 0
	if err := p.ListDisputes(ctx, windowSince, windowUntil, func(kudos.ProviderDispute) error { disputes++; return nil }); err != nil {
		t.Fatal(err)
	}
	if payments != 0 || refunds != 0 || disputes != 0 {
		t.Fatalf("%d payments, %d refunds and %d disputes of stripe-mock's fixtures listed as Kudos's", payments, refunds, disputes)
	}
	for _, path := range []string{"/v1/events", "/v1/payment_intents", "/v1/refunds", "/v1/disputes"} {
		reqs := rec.find("GET", path)
		if len(reqs) != 1 {
			t.Fatalf("%d requests to GET %s", len(reqs), path)
		}
		f := reqs[0].Form
		if f.Get("created[gte]") != fmt.Sprint(windowSince.Unix()) || f.Get("created[lt]") != fmt.Sprint(windowUntil.Unix()) || f.Get("limit") != "100" {
			t.Errorf("GET %s: %v; want the window's created[gte] and created[lt], limit 100", path, f)
		}
	}
	for _, path := range []string{"/v1/refunds", "/v1/disputes"} {
		if f := rec.find("GET", path)[0].Form; f.Get("expand[0]") != "data.payment_intent" {
			t.Errorf("GET %s without their PaymentIntent: %v", path, f)
		}
	}
}

// TestLedgerReadsAListedEventAsTheWebhookDoes: an event found in Stripe's
// list (never delivered) is read by the webhook's own intake: the
// checkout session is read again, and the event gives the payment event a
// delivery would have.
func TestLedgerReadsAListedEventAsTheWebhookDoes(t *testing.T) {
	account := uuid.New()
	meta := fmt.Sprintf(`{"account_id":%q,"checkout_id":"chk_1","purpose":"subscription"}`, account)
	created := windowSince.Add(time.Hour).Unix()
	list := fmt.Sprintf(`{"object":"list","url":"/v1/events","has_more":false,"data":[%s]}`, eventJSON("checkout.session.completed", created))
	p, rec, _ := newTestProvider(t, map[string]canned{
		"GET /v1/events":                 {200, list},
		"GET /v1/checkout/sessions/cs_1": {200, sessionJSON("complete", "paid", meta)},
	})
	ctx := context.Background()
	var got []*kudos.PaymentEvent
	err := p.ListEvents(ctx, windowSince, windowUntil, func(ev kudos.ProviderEvent) error {
		pe, err := p.ReadEvent(ctx, ev)
		got = append(got, pe)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := kudos.PaymentEvent{EventID: "evt_1", Provider: "stripe", CheckoutID: "chk_1", AccountID: account, Outcome: kudos.PaymentPaid,
		OccurredAt: time.Unix(created, 0).UTC()}
	if len(got) != 1 || got[0] == nil || *got[0] != want {
		t.Fatalf("read %+v, want %+v", got, want)
	}
	if n := len(rec.find("GET", "/v1/checkout/sessions/cs_1")); n != 1 {
		t.Fatalf("the session was read %d times", n)
	}
}

// TestLedgerPaymentsAndRefundsAreKudoss: of Stripe's PaymentIntents, the
// succeeded ones Kudos made are listed with Kudos's reference (a
// checkout's or an off-session charge's); a verification charge, one still
// processing and one made outside Kudos are not. Of its refunds, one made
// in the dashboard (no metadata of its own) is Kudos's by its
// PaymentIntent's; a verification's refund and a failed one are not.
func TestLedgerPaymentsAndRefundsAreKudoss(t *testing.T) {
	account := uuid.New()
	pi := func(id, status, meta string) string {
		return fmt.Sprintf(`{"id":%q,"object":"payment_intent","status":%q,"amount":1210,"amount_received":1210,"currency":"eur","created":%d,"metadata":%s}`,
			id, status, windowSince.Unix()+60, meta)
	}
	acct := fmt.Sprintf(`"account_id":%q`, account)
	intents := fmt.Sprintf(`{"object":"list","url":"/v1/payment_intents","has_more":false,"data":[%s,%s,%s,%s,%s]}`,
		pi("pi_checkout", "succeeded", `{`+acct+`,"checkout_id":"chk_1"}`),
		pi("pi_renewal", "succeeded", `{`+acct+`,"charge_id":"renewal:1"}`),
		pi("pi_verify", "succeeded", `{`+acct+`,"verification_id":"v1"}`),
		pi("pi_settling", "processing", `{`+acct+`,"charge_id":"renewal:2"}`),
		pi("pi_other", "succeeded", `{}`))
	refund := func(id, status, meta, piJSON string) string {
		return fmt.Sprintf(`{"id":%q,"object":"refund","status":%q,"amount":500,"currency":"eur","created":%d,"metadata":%s,"payment_intent":%s}`,
			id, status, windowSince.Unix()+120, meta, piJSON)
	}
	refunds := fmt.Sprintf(`{"object":"list","url":"/v1/refunds","has_more":false,"data":[%s,%s,%s,%s]}`,
		refund("re_kudos", "succeeded", `{`+acct+`,"refund_id":"r1"}`, pi("pi_checkout", "succeeded", `{`+acct+`,"checkout_id":"chk_1"}`)),
		refund("re_dashboard", "succeeded", `{}`, pi("pi_renewal", "succeeded", `{`+acct+`,"charge_id":"renewal:1"}`)),
		refund("re_verify", "succeeded", `{`+acct+`}`, pi("pi_verify", "succeeded", `{`+acct+`,"verification_id":"v1"}`)),
		refund("re_failed", "failed", `{`+acct+`}`, pi("pi_checkout", "succeeded", `{`+acct+`,"checkout_id":"chk_1"}`)))
	p, _, _ := newTestProvider(t, map[string]canned{"GET /v1/payment_intents": {200, intents}, "GET /v1/refunds": {200, refunds}})
	ctx := context.Background()
	var pays []string
	if err := p.ListPayments(ctx, windowSince, windowUntil, func(pay kudos.ProviderPayment) error {
		if pay.AccountID != account || pay.Amount != (kudos.Money{Amount: 1210, Currency: "EUR"}) {
			t.Errorf("payment %+v", pay)
		}
		pays = append(pays, pay.ID+"="+pay.Reference)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(pays, " ") != "pi_checkout=chk_1 pi_renewal=renewal:1" {
		t.Fatalf("payments listed: %v", pays)
	}
	var res []string
	if err := p.ListRefunds(ctx, windowSince, windowUntil, func(r kudos.ProviderRefund) error {
		if r.AccountID != account || r.Amount != (kudos.Money{Amount: 500, Currency: "EUR"}) {
			t.Errorf("refund %+v", r)
		}
		res = append(res, r.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(res, " ") != "re_kudos re_dashboard" {
		t.Fatalf("refunds listed: %v", res)
	}
}

// TestLedgerListsPageByPage: a list longer than a page is read a page at
// a time (stripe-go's auto-pagination: starting_after the last item read),
// every item once: the events, and the disputes (compared from months
// back, the longest list).
func TestLedgerListsPageByPage(t *testing.T) {
	account := uuid.New()
	items := map[string]func(id string) string{
		"/v1/events": func(id string) string {
			return fmt.Sprintf(`{"id":%q,"object":"event","type":"customer.created","created":%d,"data":{"object":{}}}`, id, windowSince.Unix()+1)
		},
		"/v1/disputes": func(id string) string {
			return fmt.Sprintf(`{"id":%q,"object":"dispute","status":"under_review","amount":100,"currency":"eur","created":%d,`+
				`"payment_intent":{"id":"pi_1","object":"payment_intent","metadata":{"account_id":%q,"checkout_id":"chk_1"}}}`,
				id, windowSince.Unix()+1, account)
		},
	}
	queries := map[string][]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries[r.URL.Path] = append(queries[r.URL.Path], r.URL.Query().Get("starting_after"))
		w.Header().Set("Content-Type", "application/json")
		item := items[r.URL.Path]
		if r.URL.Query().Get("starting_after") == "" {
			fmt.Fprintf(w, `{"object":"list","url":%q,"has_more":true,"data":[%s,%s]}`, r.URL.Path, item("x_a"), item("x_b"))
			return
		}
		fmt.Fprintf(w, `{"object":"list","url":%q,"has_more":false,"data":[%s]}`, r.URL.Path, item("x_c"))
	}))
	defer srv.Close()
	p, err := newProvider(Config{SecretKey: "sk_test_kudos", WebhookSecret: testWebhookSecret, APIBaseURL: srv.URL, Currency: "EUR"},
		&memStore{}, srv.Client(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var events, disputes []string
	if err := p.ListEvents(ctx, windowSince, windowUntil, func(ev kudos.ProviderEvent) error {
		events = append(events, ev.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := p.ListDisputes(ctx, windowSince, windowUntil, func(d kudos.ProviderDispute) error {
		disputes = append(disputes, d.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for path, ids := range map[string][]string{"/v1/events": events, "/v1/disputes": disputes} {
		if strings.Join(ids, " ") != "x_a x_b x_c" || strings.Join(queries[path], ",") != ",x_b" {
			t.Fatalf("%s: %v over requests starting after %q", path, ids, queries[path])
		}
	}
}

// TestLedgerDisputesAreKudoss: of Stripe's disputes, those of payments
// Kudos made are listed with Kudos's account and payment reference (from
// the expanded PaymentIntent's metadata) and the status the intake books:
// one waiting for evidence is open, lost is lost, an inquiry closed
// without a chargeback (warning_closed) is won, and so is one prevented
// before it became a chargeback (prevented). A SEPA debit's dispute (a
// returned payment to Kudos), one of a payment made outside Kudos and one
// of a charge without a PaymentIntent are not listed.
func TestLedgerDisputesAreKudoss(t *testing.T) {
	account := uuid.New()
	acct := fmt.Sprintf(`"account_id":%q`, account)
	dispute := func(id, status, method, piJSON string) string {
		return fmt.Sprintf(`{"id":%q,"object":"dispute","status":%q,"amount":2178,"currency":"eur","reason":"fraudulent","created":%d,`+
			`"charge":"ch_1","payment_intent":%s,"payment_method_details":{"type":%q}}`, id, status, windowSince.Unix()+60, piJSON, method)
	}
	pi := func(meta string) string {
		return fmt.Sprintf(`{"id":"pi_1","object":"payment_intent","status":"succeeded","amount":2178,"currency":"eur","metadata":%s}`, meta)
	}
	list := fmt.Sprintf(`{"object":"list","url":"/v1/disputes","has_more":false,"data":[%s,%s,%s,%s,%s,%s,%s]}`,
		dispute("dp_open", "needs_response", "card", pi(`{`+acct+`,"checkout_id":"chk_1"}`)),
		dispute("dp_lost", "lost", "card", pi(`{`+acct+`,"charge_id":"renewal:1"}`)),
		dispute("dp_inquiry", "warning_closed", "card", pi(`{`+acct+`,"checkout_id":"chk_2"}`)),
		dispute("dp_prevented", "prevented", "card", pi(`{`+acct+`,"checkout_id":"chk_3"}`)),
		dispute("dp_sepa", "lost", "sepa_debit", pi(`{`+acct+`,"charge_id":"renewal:2"}`)),
		dispute("dp_other", "lost", "card", pi(`{}`)),
		dispute("dp_no_intent", "lost", "card", "null"))
	p, _, _ := newTestProvider(t, map[string]canned{"GET /v1/disputes": {200, list}})
	var got []string
	if err := p.ListDisputes(context.Background(), windowSince, windowUntil, func(d kudos.ProviderDispute) error {
		if d.AccountID != account || d.Amount != (kudos.Money{Amount: 2178, Currency: "EUR"}) || d.Reason != "fraudulent" ||
			!d.Created.Equal(windowSince.Add(time.Minute)) {
			t.Errorf("dispute %+v", d)
		}
		got = append(got, d.ID+"="+d.Payment+":"+string(d.Status))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := "dp_open=chk_1:open dp_lost=renewal:1:lost dp_inquiry=chk_2:won dp_prevented=chk_3:won"; strings.Join(got, " ") != want {
		t.Fatalf("disputes listed: %v, want %s", got, want)
	}
}
