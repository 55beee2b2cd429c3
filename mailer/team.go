package mailer

import (
	"strings"

	"github.com/google/uuid"

	"kudos"
)

// teamView is what a team mail's templates see of its kudos.MailTeam: the
// facts written in the mail's language, names cleaned like the greeting's.
type teamView struct {
	AccountName string
	Inviter     string
	Member      string
	// Role is the role's name in the mail's language.
	Role      string
	ExpiresAt string
	// Owner tells the owner's variant of a mail (account_deletion_scheduled).
	Owner bool
}

// roleNames are the roles' names per language.
var roleNames = map[string]map[kudos.Role]string{
	"en": {kudos.RoleOwner: "owner", kudos.RoleAdmin: "admin", kudos.RoleMember: "member"},
	"nl": {kudos.RoleOwner: "eigenaar", kudos.RoleAdmin: "beheerder", kudos.RoleMember: "lid"},
	"fr": {kudos.RoleOwner: "propriétaire", kudos.RoleAdmin: "administrateur", kudos.RoleMember: "membre"},
}

// teamFacts checks that req carries every fact its team purpose must
// state, and writes them in lang. A mail missing one is refused (EInvalid)
// rather than sent with a blank. It returns nil for other purposes, which
// must not carry team facts. Names come from users (an account name, a
// first name): anything a mail client would make a link of is dropped.
func teamFacts(req kudos.MailRequest, lang string) (*teamView, error) {
	t := req.Team
	if !req.Purpose.IsTeam() {
		if t != nil {
			return nil, kudos.Errorf(kudos.EInvalid, "mail: purpose %q carries no team facts", req.Purpose)
		}
		return nil, nil
	}
	if t == nil {
		return nil, kudos.Errorf(kudos.EInvalid, "mail: team mail %q without its team facts", req.Purpose)
	}
	v := &teamView{AccountName: mailName(t.AccountName), Inviter: mailName(t.Inviter), Member: mailName(t.Member),
		Role: roleNames[lang][t.Role], Owner: t.Role == kudos.RoleOwner}
	if t.ExpiresAt != nil {
		v.ExpiresAt = formatDate(*t.ExpiresAt, lang)
	}
	var missing []string
	need := func(ok bool, fact string) {
		if !ok {
			missing = append(missing, fact)
		}
	}
	need(t.AccountID != uuid.Nil, "account_id")
	need(v.AccountName != "", "account_name")
	need(v.Role != "", "role")
	switch req.Purpose {
	case kudos.MailTeamInvitation, kudos.MailTeamInvitationReminder:
		need(v.Inviter != "", "inviter")
		need(v.ExpiresAt != "", "expires_at")
	case kudos.MailAccountDeletionScheduled:
		need(v.ExpiresAt != "", "expires_at")
	default:
		need(v.Member != "", "member")
	}
	if len(missing) > 0 {
		return nil, kudos.Errorf(kudos.EInvalid, "mail: %s mail without %s", req.Purpose, strings.Join(missing, ", "))
	}
	return v, nil
}
