package mailer

import (
	"github.com/google/uuid"

	"kudos"
)

// exportView is what the data_export_ready templates see: the account's
// name for an account's export ("" for a user's own data), cleaned like
// any name, and the expiry in the mail's language.
type exportView struct {
	AccountName string
	ExpiresAt   string
}

// exportFacts checks that a data_export_ready mail names its export and
// expiry, and that no other mail carries export facts.
func exportFacts(req kudos.MailRequest, lang string) (*exportView, error) {
	e := req.Export
	if req.Purpose != kudos.MailDataExportReady {
		if e != nil {
			return nil, kudos.Errorf(kudos.EInvalid, "mail: purpose %q carries no export facts", req.Purpose)
		}
		return nil, nil
	}
	if e == nil || e.ExportID == uuid.Nil || e.ExpiresAt.IsZero() {
		return nil, kudos.Errorf(kudos.EInvalid, "mail: a %q mail without its export and expiry", req.Purpose)
	}
	return &exportView{AccountName: mailName(e.AccountName), ExpiresAt: formatDate(e.ExpiresAt, lang)}, nil
}
