package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"

	"github.com/google/uuid"

	"kudos"
)

// MailTokens derives the single-use tokens carried in e-mail links.
//
// A token is HMAC-SHA256(secret, purpose ":" key) where key is 128 random bits
// chosen per request. The database keeps only SHA-256(token); the e-mail
// workflow's history carries only the key. So the token itself is stored
// nowhere: the api derives it to store its hash, the mail activity derives it
// again to build the link, however often delivery is retried.
type MailTokens struct{ secret []byte }

// NewMailTokens returns a MailTokens keyed by secret.
func NewMailTokens(secret string) *MailTokens {
	return &MailTokens{secret: []byte("kudos-mail-token\x00" + secret)}
}

// NewKey returns a fresh random request key (128 bits, hex).
func NewKey() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// Token returns the token for purpose and key.
func (m *MailTokens) Token(purpose kudos.TokenPurpose, key string) string {
	mac := hmac.New(sha256.New, m.secret)
	mac.Write([]byte(string(purpose) + ":" + key))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// mailLinks are, per mail purpose, the path of its call-to-action link under
// the public URL and the purpose of the token it carries ("" for none).
var mailLinks = map[kudos.MailPurpose]struct {
	path  string
	token kudos.TokenPurpose
}{
	kudos.MailActivation:     {"/auth/confirm-email?token=", kudos.TokenActivation},
	kudos.MailPasswordReset:  {"/auth/reset-password?token=", kudos.TokenPasswordReset},
	kudos.MailSignupExisting: {"/signin", ""},
}

// billingLinks are, per billing mail, the page of the account's dashboard
// its link opens (payment_action_required opens the provider's page). The
// plans page needs `for` to offer its buttons: start a plan during the
// trial, continue the expired one.
var billingLinks = map[kudos.MailPurpose]string{
	kudos.MailTrialReminder:   "/plans?for=trial_expired",
	kudos.MailRenewalReminder: "/account-settings/plan",
	kudos.MailPaymentReceipt:  "/billing/invoices",
	kudos.MailPaymentFailed:   "/billing/payment-details",
	kudos.MailPlanExpired:     "/plans?for=plan_expired",
	kudos.MailRefundIssued:    "/billing/invoices",
}

// Link returns the call-to-action link of a mail of purpose asked for with
// request key key, under root (KUDOS_PUBLIC_URL), or "" when the purpose has
// none (billing mails: see MailLink). The mail activity calls it (through
// MailLink), so the link and its token exist only in the activity's memory
// and in the mail itself: never in the outbox, the workflow's history or a
// log.
func (m *MailTokens) Link(root string, purpose kudos.MailPurpose, key string) string {
	l, ok := mailLinks[purpose]
	switch {
	case !ok:
		return ""
	case l.token == "":
		return root + l.path
	default:
		return root + l.path + m.Token(l.token, key)
	}
}

// MailLink returns the call-to-action link of the mail req asks for, under
// root, or "" when it has none: Link for the account's mails; for a billing
// mail, a page of its account's dashboard (req.Billing.AccountID), or the
// provider's page (Billing.PayURL, which must be an http(s) URL) that
// completes a payment. Links without a token work on a nil *MailTokens. An
// error (EInvalid) means no link can be made: the mail is refused.
func (m *MailTokens) MailLink(root string, req kudos.MailRequest) (string, error) {
	if req.Purpose.IsBilling() {
		return billingLink(root, req)
	}
	if req.Purpose.IsTeam() {
		return m.teamLink(root, req)
	}
	if req.Purpose == kudos.MailVATIDChecked {
		if req.VAT == nil || req.VAT.AccountID == uuid.Nil {
			return "", kudos.Errorf(kudos.EInvalid, "mail: a %q mail names no account", req.Purpose)
		}
		return root + "/dashboard/" + req.VAT.AccountID.String() + "/billing/payment-details", nil
	}
	if req.Purpose == kudos.MailDataExportReady {
		if req.Export == nil || req.Export.ExportID == uuid.Nil {
			return "", kudos.Errorf(kudos.EInvalid, "mail: a %q mail names no export", req.Purpose)
		}
		return root + ExportPath + req.Export.ExportID.String(), nil
	}
	if l, ok := mailLinks[req.Purpose]; ok && l.token != "" && m == nil {
		return "", kudos.Errorf(kudos.EInvalid, "mail: no token secret for a %q link", req.Purpose)
	}
	return m.Link(root, req.Purpose, req.Key), nil
}

// billingLink is the link of a billing mail.
func billingLink(root string, req kudos.MailRequest) (string, error) {
	b := req.Billing
	if b == nil || b.AccountID == uuid.Nil {
		return "", kudos.Errorf(kudos.EInvalid, "mail: a %q mail names no account", req.Purpose)
	}
	if req.Purpose == kudos.MailPaymentActionRequired {
		if !kudos.IsWebURL(b.PayURL) {
			return "", kudos.Errorf(kudos.EInvalid, "mail: the payment page of a %q mail is not an http(s) URL", req.Purpose)
		}
		return b.PayURL, nil
	}
	page := billingLinks[req.Purpose]
	if req.Purpose == kudos.MailPaymentFailed && b.Returned && b.Date == nil { // nothing retries it: the invoice is paid from the invoices
		page = billingLinks[kudos.MailPaymentReceipt]
	}
	return root + "/dashboard/" + b.AccountID.String() + page, nil
}

// teamPages are, per team mail without a token, the page of the account's
// dashboard its link opens.
var teamPages = map[kudos.MailPurpose]string{
	kudos.MailTeamInvitationAccepted: "/team",
	kudos.MailOwnershipTransferred:   "/team",
	kudos.MailOwnershipReceived:      "/account-settings/plan",
	// The dashboard, whose banner tells of the deletion (and lets the
	// owner cancel it).
	kudos.MailAccountDeletionScheduled: "",
}

// teamLink is the link of a team mail: an invitation's accept page, with
// the token derived from req.Team.TokenKey, or a page of the account.
func (m *MailTokens) teamLink(root string, req kudos.MailRequest) (string, error) {
	t := req.Team
	switch {
	case t == nil || t.AccountID == uuid.Nil:
		return "", kudos.Errorf(kudos.EInvalid, "mail: a %q mail names no account", req.Purpose)
	case req.Purpose == kudos.MailTeamInvitation || req.Purpose == kudos.MailTeamInvitationReminder:
		if t.TokenKey == "" {
			return "", kudos.Errorf(kudos.EInvalid, "mail: a %q mail without its token key", req.Purpose)
		}
		if m == nil {
			return "", kudos.Errorf(kudos.EInvalid, "mail: no token secret for a %q link", req.Purpose)
		}
		return root + InvitationPath + m.Token(kudos.TokenInvitation, t.TokenKey), nil
	}
	return root + "/dashboard/" + t.AccountID.String() + teamPages[req.Purpose], nil
}

// ExportPath is the page of a data export (it needs its user signed in),
// under the public URL, before the export's id.
const ExportPath = "/exports/"

// InvitationPath is the accept page of an invitation, under the public
// URL, before its token.
const InvitationPath = "/invitation?token="

// HashToken is what the database stores of a token.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// ValidTokenShape reports whether s could be a token (43 base64url chars
// that encode 32 bytes, canonically), so that junk is refused before it
// reaches the database. The decoded length matters: the decoder skips CR and
// LF, so 43 characters with line breaks in them decode to fewer bytes.
func ValidTokenShape(s string) bool {
	if len(s) != 43 {
		return false
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(s)
	return err == nil && len(raw) == 32
}
