package mailer

import (
	"github.com/google/uuid"

	"kudos"
)

// vatView is what the vat_id_checked templates see.
type vatView struct {
	VATID    string
	Verified bool
	GaveUp   bool
}

// vatFacts checks that a vat_id_checked mail names its account, id and a
// final status, and that no other mail carries VAT facts.
func vatFacts(req kudos.MailRequest) (*vatView, error) {
	v := req.VAT
	if req.Purpose != kudos.MailVATIDChecked {
		if v != nil {
			return nil, kudos.Errorf(kudos.EInvalid, "mail: purpose %q carries no VAT-id facts", req.Purpose)
		}
		return nil, nil
	}
	if v == nil || v.AccountID == uuid.Nil || v.VATID == "" || (v.Status != kudos.VATIDVerified && v.Status != kudos.VATIDInvalid) {
		return nil, kudos.Errorf(kudos.EInvalid, "mail: a %q mail without its account, VAT id and result", req.Purpose)
	}
	return &vatView{VATID: mailName(v.VATID), Verified: v.Status == kudos.VATIDVerified, GaveUp: v.GaveUp}, nil
}
