package api_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"kudos"
	"kudos/ops"
	"kudos/tracing/tracingtest"
	"kudos/workflows"
)

// pendingWebhooks announces the event set when the test has the checkout
// it pays (Stripe's webhook, as the harness's fake parser).
type pendingWebhooks struct{ ev *kudos.PaymentEvent }

func (p *pendingWebhooks) ParseWebhook(_ context.Context, _ []byte, sig string) (*kudos.PaymentEvent, error) {
	if sig != "good" {
		return nil, kudos.Errorf(kudos.EBadRequest, "bad signature")
	}
	return p.ev, nil
}

// paidThroughWebhook signs up email, opens a PRO checkout (the requests in
// trace setup) and pays it with Stripe's webhook sent in trace pay, whose
// body carries what a real one does (the payer's address, the amount, a
// card number). It returns the session token and the account once the
// plan is active.
func paidThroughWebhook(t *testing.T, exp *tracingtest.Exporter, email string) (h *harness, setup, pay trace.TraceID, token, account string) {
	hooks := &pendingWebhooks{}
	h = newHarness(t)
	h.srv.Webhooks = hooks
	h = h.withTemporal(time.Hour)
	setup, h.traceparent = exp.NewTrace()
	token, account, _ = h.startPlan(email, "PRO")
	h.traceparent = ""
	hooks.ev = &kudos.PaymentEvent{EventID: "evt_" + uuid.NewString(), Provider: "sandbox", CheckoutID: h.checkoutOf(account),
		AccountID: uuid.MustParse(account), Outcome: kudos.PaymentPaid, OccurredAt: time.Now()}
	pay, parent := exp.NewTrace()
	body := fmt.Sprintf(`{"id":%q,"type":"checkout.session.completed","data":{"object":{"customer_email":%q,"amount_total":56628,"card":"4242424242424242"}}}`,
		hooks.ev.EventID, email)
	h.expect(h.do("POST", "/v1/webhooks/stripe", body, "", "Stripe-Signature", "good", "Traceparent", parent), 200)
	eventually(t, "the plan to become active", func() bool {
		s := h.subscription(token, account)
		return s["plan"] == "PRO" && s["show_status"] == "active"
	})
	return h, setup, pay, token, account
}

// TestAPaymentIsOneTrace: a checkout paid through the webhook is one trace
// (issue 40), the one the webhook's caller started: the webhook's server
// span, the payment event and its outbox entry written in its
// transaction, the relay's delivery of that entry, the update it sends
// the subscription workflow, the workflow's handling of it, the
// activities it runs and, inside them, the read model's write of the
// active plan. Each span's parent is in the trace; `kudos ops account`
// prints the trace's id beside the payment event.
func TestAPaymentIsOneTrace(t *testing.T) {
	exp := tracingtest.Install()
	h, _, pay, _, account := paidThroughWebhook(t, exp, "traced@example.com")

	// `kudos ops account` prints the payment's trace beside its event.
	in := &ops.Inspector{Store: h.db, Temporal: h.tc, Timeline: ops.StoreTimeline(h.db), Wait: 5 * time.Second}
	report, err := in.Account(context.Background(), uuid.MustParse(account))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := ops.WriteText(&text, report); err != nil {
		t.Fatal(err)
	}
	if len(report.Account.Events) != 1 || report.Account.Events[0].TraceID != pay.String() || !strings.Contains(text.String(), "trace "+pay.String()) {
		t.Errorf("the ops report does not name the payment's trace %s: %+v\n%s", pay, report.Account.Events, text.String())
	}

	want := []string{"POST /v1/webhooks/stripe", "db INSERT INTO payment_events", "db INSERT INTO outbox", "outbox deliver payment_event",
		"UpdateWorkflow:" + workflows.UpdatePaymentEvent, "HandleUpdate:" + workflows.UpdatePaymentEvent, "db UPDATE subscriptions"}
	// A span is exported when it ends: a child (the receipt mail's
	// activity) can be seen before its parent ends, so the trace is read
	// once it is whole, with every span's parent in it.
	whole := func(spans tracetest.SpanStubs) bool {
		ids := map[trace.SpanID]bool{}
		for _, s := range spans {
			ids[s.SpanContext.SpanID()] = true
		}
		return !slices.ContainsFunc(spans, func(s tracetest.SpanStub) bool {
			return !ids[s.Parent.SpanID()] && s.Name != "POST /v1/webhooks/stripe"
		})
	}
	spans := exp.WaitFor(t, pay, "the payment's way to the read model, whole", func(s tracetest.SpanStubs) bool {
		names := tracingtest.Names(s)
		for _, w := range want {
			if !slices.Contains(names, w) {
				return false
			}
		}
		return slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "RunActivity:") }) && whole(s)
	})
	byID := map[trace.SpanID]tracetest.SpanStub{}
	for _, s := range spans {
		byID[s.SpanContext.SpanID()] = s
	}
	// The read model's write runs in an activity of the workflow's update.
	ancestors := func(s tracetest.SpanStub) []string {
		var out []string
		for p, ok := byID[s.Parent.SpanID()]; ok; p, ok = byID[p.Parent.SpanID()] {
			out = append(out, p.Name)
		}
		return out
	}
	for _, s := range spans {
		if s.Name != "db UPDATE subscriptions" {
			continue
		}
		up := ancestors(s)
		if !slices.ContainsFunc(up, func(n string) bool { return strings.HasPrefix(n, "RunActivity:") }) ||
			!slices.Contains(up, "HandleUpdate:"+workflows.UpdatePaymentEvent) || !slices.Contains(up, "outbox deliver payment_event") ||
			!slices.Contains(up, "POST /v1/webhooks/stripe") {
			t.Errorf("the read model's write is not under the activity, the update, the delivery and the webhook: its ancestors are %v", up)
		}
	}
	// One trace, whole: only the caller's span (not exported here) is
	// outside it.
	for _, s := range spans {
		if _, ok := byID[s.Parent.SpanID()]; !ok && s.Name != "POST /v1/webhooks/stripe" {
			t.Errorf("span %q has a parent outside the trace", s.Name)
		}
	}
}

// TestTracesHoldNoPersonalData: every span of three traces (a sign-up,
// billing address and checkout; the payment's webhook with its body
// naming the payer, the amount and a card; an invitation mailed, opened by
// its secret link, and a password reset) is scanned, name, attributes,
// events and status, for the mail addresses, the session, activation,
// invitation and reset tokens, the password, the card number and the
// amounts (issue 40, as TestNoMailTokenStoredInClear scans the rows). The
// traces must hold the spans of every instrumented layer, so that the scan
// looks at something.
func TestTracesHoldNoPersonalData(t *testing.T) {
	exp := tracingtest.Install()
	const owner, member = "scan-owner@example.com", "scan-member@example.com"
	h, setup, pay, session, account := paidThroughWebhook(t, exp, owner)
	activation := tokenFrom(h.lastMailOf(owner, kudos.MailActivation).Link)

	team, parent := exp.NewTrace()
	h.traceparent = parent
	h.expect(h.invite(session, account, member, "member"), 201)
	invitation := h.invitationToken(member)
	h.expect(h.do("GET", "/v1/invitations/"+invitation, nil, ""), 200)
	h.expect(h.do("POST", "/v1/auth/password-reset-token", map[string]any{"email": owner}, ""), 202)
	h.deliverQueued()
	reset := tokenFrom(h.waitMail(owner, kudos.MailPasswordReset).Link)
	h.traceparent = ""

	has := func(prefixes ...string) func(tracetest.SpanStubs) bool {
		return func(s tracetest.SpanStubs) bool {
			names := tracingtest.Names(s)
			for _, p := range prefixes {
				if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, p) }) {
					return false
				}
			}
			return true
		}
	}
	var spans tracetest.SpanStubs
	spans = append(spans, exp.WaitFor(t, setup, "the sign-up's and checkout's spans", has("POST /v1/auth/signup", "PUT /v1/auth/activate-user",
		"PATCH /v1/accounts/:accountId/billing-address", "POST /v1/accounts/:accountId/subscription", "UpdateWorkflow:", "RunActivity:", "db "))...)
	spans = append(spans, exp.WaitFor(t, pay, "the payment's spans", has("POST /v1/webhooks/stripe", "outbox deliver", "RunActivity:SendMail"))...)
	spans = append(spans, exp.WaitFor(t, team, "the invitation's and reset's spans", has("POST /v1/accounts/:accountId/invitations",
		"GET /v1/invitations/:token", "POST /v1/auth/password-reset-token", "outbox deliver mail", "RunActivity:SendMail"))...)

	secrets := []string{owner, member, session, activation, invitation, reset, "Secret1!", "4242424242424242"}
	// Amounts are numbers of their own (an id's hex may hold the digits).
	amounts := regexp.MustCompile(`(^|[^0-9A-Za-z])(56628|566\.28|46800|468\.00)([^0-9A-Za-z]|$)`)
	for _, s := range spans {
		var texts []string
		texts = append(texts, s.Name, s.Status.Description)
		for _, a := range s.Attributes {
			texts = append(texts, string(a.Key)+"="+a.Value.Emit())
		}
		for _, e := range s.Events {
			texts = append(texts, e.Name)
			for _, a := range e.Attributes {
				texts = append(texts, string(a.Key)+"="+a.Value.Emit())
			}
		}
		for _, text := range texts {
			for _, secret := range secrets {
				if strings.Contains(text, secret) {
					t.Errorf("span %q holds %q: %s", s.Name, secret, text)
				}
			}
			if m := amounts.FindString(text); m != "" {
				t.Errorf("span %q holds the amount %q: %s", s.Name, m, text)
			}
		}
	}
	t.Logf("%d spans scanned", len(spans))
}
