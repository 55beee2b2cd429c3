package mailer

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// update rewrites the golden files: go test ./mailer -update
var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

var (
	billingAccount = uuid.MustParse("6f1c2d3e-4a5b-4c6d-8e7f-901234567890")
	billingInvoice = uuid.MustParse("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")
	march5         = time.Date(2027, 3, 5, 9, 30, 0, 0, time.UTC)
	march5Next     = time.Date(2028, 3, 5, 9, 30, 0, 0, time.UTC)
	march8         = time.Date(2027, 3, 8, 9, 30, 0, 0, time.UTC)
	payURL         = "https://checkout.stripe.com/c/pay/cs_test_a1?step=auth&x=1"
)

// billingCase is one billing mail as the subscription workflow asks for it.
type billingCase struct {
	file    string // golden file name without language
	purpose kudos.MailPurpose
	link    string
	billing kudos.MailBilling
}

func billingCases() []billingCase {
	app := "https://app.kudos.localhost/dashboard/" + billingAccount.String()
	amount := &kudos.Money{Amount: 21780, Currency: "EUR"}
	inv := billingInvoice
	return []billingCase{
		{"trial_reminder", kudos.MailTrialReminder, app + "/plans?for=trial_expired",
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanTrial, Date: &march5}},
		{"renewal_reminder", kudos.MailRenewalReminder, app + "/account-settings/plan",
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, Date: &march5, AutoRenew: true}},
		{"renewal_reminder.ends", kudos.MailRenewalReminder, app + "/account-settings/plan",
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Date: &march5}},
		{"payment_receipt", kudos.MailPaymentReceipt, app + "/billing/invoices",
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv,
				InvoiceNumber: "KUD-2027-000042", PeriodStart: &march5, PeriodEnd: &march5Next}},
		{"payment_failed", kudos.MailPaymentFailed, app + "/billing/payment-details",
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, Date: &march8}},
		{"payment_failed.returned", kudos.MailPaymentFailed, app + "/billing/invoices",
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv,
				InvoiceNumber: "KUD-2027-000042", Returned: true}},
		{"payment_failed.returned_retried", kudos.MailPaymentFailed, app + "/billing/payment-details",
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv,
				InvoiceNumber: "KUD-2027-000042", Date: &march8, Returned: true}},
		{"payment_action_required", kudos.MailPaymentActionRequired, payURL,
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, Date: &march8, PayURL: payURL}},
		{"payment_action_required.returned", kudos.MailPaymentActionRequired, payURL,
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv,
				InvoiceNumber: "KUD-2027-000042", Date: &march8, PayURL: payURL, Returned: true}},
		{"payment_action_required.no_retry", kudos.MailPaymentActionRequired, payURL,
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, PayURL: payURL}},
		{"plan_expired", kudos.MailPlanExpired, app + "/plans?for=plan_expired",
			kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanStarter, Amount: amount, InvoiceID: &inv, Date: &march5}},
	}
}

func (c billingCase) request(lang string) kudos.MailRequest {
	b := c.billing
	return kudos.MailRequest{Key: "k-" + c.file + "-" + lang, Purpose: c.purpose, To: "ann@example.com", Language: lang,
		Name: "Ann", Link: c.link, Billing: &b}
}

// wantFacts are the amount and dates each language must show.
var wantFacts = map[string]struct{ amount, date, nextYear, retry string }{
	"en": {"€217.80", "5 March 2027", "5 March 2028", "8 March 2027"},
	"nl": {"€" + nbsp + "217,80", "5 maart 2027", "5 maart 2028", "8 maart 2027"},
	"fr": {"217,80" + nbsp + "€", "5 mars 2027", "5 mars 2028", "8 mars 2027"},
}

func TestRenderBillingMails(t *testing.T) {
	for _, c := range billingCases() {
		for _, lang := range languages {
			t.Run(c.file+"/"+lang, func(t *testing.T) {
				req := c.request(lang)
				msg, err := Render(req)
				if err != nil {
					t.Fatalf("Render: %v", err)
				}
				if msg.Purpose != c.purpose || msg.Subject == "" || strings.Contains(msg.Subject, "\n") {
					t.Errorf("purpose %q, subject %q", msg.Purpose, msg.Subject)
				}
				if !strings.Contains(msg.Text, "\n"+c.link+"\n") {
					t.Errorf("text lacks the link on its own line:\n%s", msg.Text)
				}
				if escaped := strings.ReplaceAll(c.link, "&", "&amp;"); !strings.Contains(msg.HTML, `<a href="`+escaped+`" style="display:inline-block;`) {
					t.Errorf("HTML lacks the button to the link:\n%s", msg.HTML)
				}
				f := wantFacts[lang]
				var want []string
				switch c.file {
				case "trial_reminder", "renewal_reminder.ends":
					want = []string{f.date}
				case "renewal_reminder", "plan_expired":
					want = []string{f.date, f.amount}
				case "payment_receipt":
					want = []string{f.amount, f.date, f.nextYear, "KUD-2027-000042"}
				case "payment_failed", "payment_action_required":
					want = []string{f.amount, f.retry}
				case "payment_action_required.no_retry":
					want = []string{f.amount}
				case "payment_failed.returned_retried", "payment_action_required.returned":
					want = []string{f.amount, f.retry, "KUD-2027-000042"}
				case "payment_failed.returned":
					want = []string{f.amount, "KUD-2027-000042"}
				}
				for _, w := range want {
					if !strings.Contains(msg.Text, w) || !strings.Contains(msg.HTML, w) {
						t.Errorf("%q missing from text or HTML:\n%s", w, msg.Text)
					}
				}
				if c.billing.Plan.IsPaid() && (!strings.Contains(msg.Text, "Starter") || !strings.Contains(msg.HTML, "Starter")) {
					t.Errorf("plan name missing:\n%s", msg.Text)
				}
				if strings.Contains(msg.Text, "<no value>") || strings.Contains(msg.HTML, "ZgotmplZ") || strings.Contains(msg.Text, "%!") {
					t.Errorf("template produced a placeholder:\n%s\n%s", msg.Text, msg.HTML)
				}
			})
		}
	}
}

// TestReturnedPaymentMailsSayItCameBack: every mail about a debit the bank
// returned says so and never speaks of a renewal (the invoice it paid may
// be of any kind, and the period it paid is running or over).
func TestReturnedPaymentMailsSayItCameBack(t *testing.T) {
	words := map[string]struct{ returned, renewal string }{
		"en": {"returned", "renewal"}, "nl": {"teruggeboekt", "verlenging"}, "fr": {"rejeté", "renouvellement"}}
	for _, c := range billingCases() {
		if !c.billing.Returned {
			continue
		}
		for lang, w := range words {
			msg, err := Render(c.request(lang))
			if err != nil {
				t.Fatalf("%s/%s: %v", c.file, lang, err)
			}
			for _, body := range []string{msg.Text, msg.HTML} {
				if !strings.Contains(body, w.returned) || strings.Contains(strings.ToLower(body), w.renewal) {
					t.Errorf("%s/%s: want %q and no %q:\n%s", c.file, lang, w.returned, w.renewal, body)
				}
			}
		}
	}
}

// TestRenewalReminderVariants: with auto-renewal on the mail says the plan
// renews (and for how much); off, that it ends, and no amount.
func TestRenewalReminderVariants(t *testing.T) {
	words := map[string][2]string{"en": {"renews", "ends"}, "nl": {"verlengd", "loopt af"}, "fr": {"renouvelé", "prend fin"}}
	for _, c := range billingCases() {
		if c.purpose != kudos.MailRenewalReminder {
			continue
		}
		for lang, w := range words {
			msg, err := Render(c.request(lang))
			if err != nil {
				t.Fatal(err)
			}
			renews, ends := w[0], w[1]
			if !c.billing.AutoRenew {
				renews, ends = ends, renews
			}
			if !strings.Contains(msg.Text, renews) || strings.Contains(msg.Text, ends) || !strings.Contains(msg.Subject+msg.Text, renews) {
				t.Errorf("%s %s: want %q and not %q:\n%s\n%s", c.file, lang, renews, ends, msg.Subject, msg.Text)
			}
			if !c.billing.AutoRenew && strings.Contains(msg.Text, wantFacts[lang].amount) {
				t.Errorf("%s %s: a plan that ends states an amount:\n%s", c.file, lang, msg.Text)
			}
		}
	}
}

func TestRenderBillingSubjectsDifferByLanguage(t *testing.T) {
	for _, c := range billingCases() {
		seen := map[string]string{}
		for _, lang := range languages {
			msg, err := Render(c.request(lang))
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[msg.Subject]; ok {
				t.Errorf("%s: %s and %s share subject %q", c.file, lang, other, msg.Subject)
			}
			seen[msg.Subject] = lang
		}
	}
}

// TestBillingGolden compares subject and text body with
// testdata/golden/<purpose>.<lang>.txt; go test ./mailer -update rewrites them.
func TestBillingGolden(t *testing.T) {
	for _, c := range billingCases() {
		for _, lang := range languages {
			msg, err := Render(c.request(lang))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.file+"."+lang, msg)
		}
	}
}

// TestRenderBillingEscapesUserData: the name and the provider's link are
// escaped in HTML; the link keeps working (its & becomes &amp; in the
// attribute, which the client decodes).
func TestRenderBillingEscapesUserData(t *testing.T) {
	for _, c := range billingCases() {
		req := c.request("en")
		req.Name = `<img src=x onerror="alert(1)">`
		msg, err := Render(req)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(msg.HTML, "<img") || !strings.Contains(msg.HTML, "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;") {
			t.Errorf("%s: the name is not escaped:\n%s", c.file, msg.HTML)
		}
		if !strings.Contains(msg.HTML, strings.ReplaceAll(c.link, "&", "&amp;")) {
			t.Errorf("%s: link missing from HTML", c.file)
		}
	}
	req := billingCases()[5].request("en")
	req.Link = `https://pay.example/x"><script>alert(1)</script>`
	req.Billing.PayURL = req.Link
	msg, err := Render(req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(msg.HTML, "<script>") || strings.Contains(msg.HTML, `x">`) {
		t.Errorf("a hostile link broke out of its attribute:\n%s", msg.HTML)
	}
}

// TestRenderBillingRefusesMissingFacts: a billing mail missing what it must
// state is refused (the mail activity makes that a bad mail, not retried)
// rather than sent with a blank.
func TestRenderBillingRefusesMissingFacts(t *testing.T) {
	byFile := map[string]billingCase{}
	for _, c := range billingCases() {
		byFile[c.file] = c
	}
	tests := []struct {
		name, file string
		change     func(r *kudos.MailRequest)
	}{
		{"no billing facts", "trial_reminder", func(r *kudos.MailRequest) { r.Billing = nil }},
		{"no link", "payment_failed", func(r *kudos.MailRequest) { r.Link = "" }},
		{"trial reminder without date", "trial_reminder", func(r *kudos.MailRequest) { r.Billing.Date = nil }},
		{"renewal without date", "renewal_reminder", func(r *kudos.MailRequest) { r.Billing.Date = nil }},
		{"auto-renewal without amount", "renewal_reminder", func(r *kudos.MailRequest) { r.Billing.Amount = nil }},
		{"renewal without plan", "renewal_reminder.ends", func(r *kudos.MailRequest) { r.Billing.Plan = "" }},
		{"receipt without number", "payment_receipt", func(r *kudos.MailRequest) { r.Billing.InvoiceNumber = " " }},
		{"receipt without amount", "payment_receipt", func(r *kudos.MailRequest) { r.Billing.Amount = nil }},
		{"receipt without currency", "payment_receipt", func(r *kudos.MailRequest) { r.Billing.Amount = &kudos.Money{Amount: 100} }},
		{"receipt without period start", "payment_receipt", func(r *kudos.MailRequest) { r.Billing.PeriodStart = nil }},
		{"receipt without period end", "payment_receipt", func(r *kudos.MailRequest) { r.Billing.PeriodEnd = nil }},
		{"failed without amount", "payment_failed", func(r *kudos.MailRequest) { r.Billing.Amount = nil }},
		{"failed without next attempt", "payment_failed", func(r *kudos.MailRequest) { r.Billing.Date = nil }},
		{"failed for a trial", "payment_failed", func(r *kudos.MailRequest) { r.Billing.Plan = kudos.PlanTrial }},
		{"failed without invoice", "payment_failed", func(r *kudos.MailRequest) { r.Billing.InvoiceID = nil }},
		{"action without pay URL", "payment_action_required", func(r *kudos.MailRequest) { r.Billing.PayURL = "" }},
		{"action with a javascript URL", "payment_action_required", func(r *kudos.MailRequest) {
			r.Billing.PayURL, r.Link = "javascript:alert(1)", "javascript:alert(1)"
		}},
		{"action with a relative URL", "payment_action_required", func(r *kudos.MailRequest) { r.Billing.PayURL, r.Link = "/pay", "/pay" }},
		{"action without amount", "payment_action_required", func(r *kudos.MailRequest) { r.Billing.Amount = nil }},
		{"action without invoice", "payment_action_required", func(r *kudos.MailRequest) { r.Billing.InvoiceID = nil }},
		{"expired without plan", "plan_expired", func(r *kudos.MailRequest) { r.Billing.Plan = "" }},
		{"expired without amount", "plan_expired", func(r *kudos.MailRequest) { r.Billing.Amount = nil }},
		{"no account", "payment_receipt", func(r *kudos.MailRequest) { r.Billing.AccountID = uuid.Nil }},
		{"billing facts on a non-billing mail", "", func(r *kudos.MailRequest) {
			r.Purpose, r.Billing = kudos.MailEmailChanged, &kudos.MailBilling{AccountID: billingAccount}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := byFile[tt.file]
			if !ok {
				c = byFile["trial_reminder"]
			}
			req := c.request("en")
			tt.change(&req)
			_, err := Render(req)
			if code := kudos.ErrorCode(err); code != kudos.EInvalid {
				t.Errorf("code = %q (err %v), want %q", code, err, kudos.EInvalid)
			}
		})
	}
}
