package mailer

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

// vatRequest is a vat_id_checked mail of status (gaveUp: VIES never
// answered) in lang.
func vatRequest(lang string, status kudos.VATIDStatus, gaveUp bool) kudos.MailRequest {
	account := uuid.MustParse("4f6a2c1e-0000-4000-8000-000000000002")
	return kudos.MailRequest{Key: "vat_id_checked:1", Purpose: kudos.MailVATIDChecked, To: "ann@example.com", Language: lang,
		Name: "Ann", Link: "https://kudos.example/dashboard/" + account.String() + "/billing/payment-details",
		VAT: &kudos.MailVAT{AccountID: account, VATID: "BE0123456999", Status: status, GaveUp: gaveUp}}
}

// TestVATIDCheckedMailGolden: the vat_id_checked mail of a verified id, an
// invalid one and a check that gave up, in every language, against
// testdata/golden; each names the id and links to the billing address.
func TestVATIDCheckedMailGolden(t *testing.T) {
	for _, lang := range languages {
		for variant, c := range map[string]struct {
			status kudos.VATIDStatus
			gaveUp bool
		}{"verified": {kudos.VATIDVerified, false}, "invalid": {kudos.VATIDInvalid, false}, "gave_up": {kudos.VATIDInvalid, true}} {
			msg, err := Render(vatRequest(lang, c.status, c.gaveUp))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg.Text, "BE0123456999") || !strings.Contains(msg.HTML, "/billing/payment-details") ||
				msg.Purpose != kudos.MailVATIDChecked {
				t.Errorf("%s %s: id or link missing:\n%s", lang, variant, msg.Text)
			}
			checkGolden(t, "vat_id_checked."+variant+"."+lang, msg)
		}
	}
}

// TestVATIDCheckedMailRefusesMissingFacts: without its facts, or with a
// pending status, the mail is refused; no other mail carries VAT facts.
func TestVATIDCheckedMailRefusesMissingFacts(t *testing.T) {
	req := vatRequest("en", kudos.VATIDVerified, false)
	req.VAT = nil
	if _, err := Render(req); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Errorf("no facts: %v", err)
	}
	if _, err := Render(vatRequest("en", kudos.VATIDPending, false)); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Errorf("pending: %v", err)
	}
	other := request(kudos.MailEmailChanged, "en")
	other.VAT = vatRequest("en", kudos.VATIDVerified, false).VAT
	if _, err := Render(other); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Errorf("VAT facts on another mail: %v", err)
	}
}
