package mailer

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"kudos"
)

// exportRequest is a data_export_ready mail of a user's own data, or of
// account's when account is not empty.
func exportRequest(lang, account string) kudos.MailRequest {
	return kudos.MailRequest{Key: "data_export:1", Purpose: kudos.MailDataExportReady, To: "ann@example.com", Language: lang,
		Name: "Ann", Link: "https://kudos.example/exports/4f6a2c1e-0000-4000-8000-000000000001",
		Export: &kudos.MailExport{ExportID: uuid.MustParse("4f6a2c1e-0000-4000-8000-000000000001"),
			ExpiresAt: time.Date(2027, 3, 5, 10, 0, 0, 0, time.UTC), AccountName: account}}
}

// TestExportMailGolden: the data_export_ready mail of a user's data and of
// an account's, in every language, against testdata/golden.
func TestExportMailGolden(t *testing.T) {
	for _, lang := range languages {
		for variant, account := range map[string]string{"user": "", "account": "Acme BV"} {
			msg, err := Render(exportRequest(lang, account))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg.HTML, "/exports/4f6a2c1e") || (account != "" && !strings.Contains(msg.Text, account)) {
				t.Errorf("%s %s: link or account missing:\n%s", lang, variant, msg.Text)
			}
			checkGolden(t, "data_export_ready."+variant+"."+lang, msg)
		}
	}
}

// TestExportMailRefusesMissingFacts: without its export or expiry the mail
// is refused rather than sent with a blank, and no other mail carries
// export facts.
func TestExportMailRefusesMissingFacts(t *testing.T) {
	req := exportRequest("en", "")
	req.Export = nil
	if _, err := Render(req); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Errorf("no export facts: %v", err)
	}
	req = exportRequest("en", "")
	req.Export.ExpiresAt = time.Time{}
	if _, err := Render(req); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Errorf("no expiry: %v", err)
	}
	other := request(kudos.MailEmailChanged, "en")
	other.Export = exportRequest("en", "").Export
	if _, err := Render(other); kudos.ErrorCode(err) != kudos.EInvalid {
		t.Errorf("export facts on another mail: %v", err)
	}
}
