package mailer

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

// refundRequest is a refund_issued mail in lang, of a refund with its
// credit note (withNote) or of a payment that paid no invoice.
func refundRequest(lang string, withNote bool) kudos.MailRequest {
	account := uuid.MustParse("4f6a2c1e-0000-4000-8000-000000000003")
	b := &kudos.MailBilling{AccountID: account, Plan: kudos.PlanPro, Amount: &kudos.Money{Amount: 56628, Currency: "EUR"}}
	if withNote {
		b.CreditNoteNumber, b.InvoiceNumber = "KUD-CN-2026-000007", "KUD-2026-000042"
	}
	return kudos.MailRequest{Key: "refund_issued:refund:co_1", Purpose: kudos.MailRefundIssued, To: "ann@example.com",
		Language: lang, Name: "Ann", Link: "https://kudos.example/dashboard/" + account.String() + "/billing/invoices", Billing: b}
}

// TestRefundIssuedMailGolden: the refund receipt with its credit note (its
// number and the invoice it corrects) and without one, in every language,
// against testdata/golden; each says the amount and links to the invoices.
func TestRefundIssuedMailGolden(t *testing.T) {
	for _, lang := range languages {
		for variant, withNote := range map[string]bool{"credit_note": true, "no_invoice": false, "requested": true} {
			req := refundRequest(lang, withNote)
			req.Billing.RefundRequested = variant == "requested" // an operator's refund (issue 36)
			msg, err := Render(req)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg.HTML, "/billing/invoices") || strings.Contains(msg.Text, "KUD-CN-2026-000007") != withNote ||
				!strings.Contains(msg.Subject, "566") {
				t.Errorf("%s %s:\n%s\n%s", lang, variant, msg.Subject, msg.Text)
			}
			if owed := strings.Contains(msg.Text, "566") && strings.Count(msg.Text, "566,28")+strings.Count(msg.Text, "566.28") > 1; owed != (variant == "requested") {
				t.Errorf("%s %s: the amount in the opening line %v, want it only in an operator's refund:\n%s", lang, variant, owed, msg.Text)
			}
			checkGolden(t, "refund_issued."+variant+"."+lang, msg)
		}
	}
	req := refundRequest("en", true)
	req.Billing.Amount = nil
	if _, err := Render(req); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Errorf("a refund receipt without its amount: %v", err)
	}
}
