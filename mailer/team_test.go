package mailer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"kudos"
)

// teamCase is one team mail as the api or the invitation workflow asks
// for it.
type teamCase struct {
	purpose kudos.MailPurpose
	link    string
	team    kudos.MailTeam
}

func teamCases() []teamCase {
	app := "https://app.kudos.localhost/dashboard/" + billingAccount.String()
	accept := "https://app.kudos.localhost/invitation?token=Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5"
	return []teamCase{
		{kudos.MailTeamInvitation, accept, kudos.MailTeam{AccountID: billingAccount, AccountName: "Acme Bakery",
			Inviter: "Grace Hopper", Role: kudos.RoleAdmin, ExpiresAt: &march5, TokenKey: "k"}},
		{kudos.MailTeamInvitationReminder, accept, kudos.MailTeam{AccountID: billingAccount, AccountName: "Acme Bakery",
			Inviter: "Grace Hopper", Role: kudos.RoleMember, ExpiresAt: &march5, TokenKey: "k"}},
		{kudos.MailTeamInvitationAccepted, app + "/team", kudos.MailTeam{AccountID: billingAccount, AccountName: "Acme Bakery",
			Member: "Ada Lovelace", Role: kudos.RoleMember}},
		{kudos.MailOwnershipTransferred, app + "/team", kudos.MailTeam{AccountID: billingAccount, AccountName: "Acme Bakery",
			Member: "Ada Lovelace", Role: kudos.RoleAdmin}},
		{kudos.MailOwnershipReceived, app + "/account-settings/plan", kudos.MailTeam{AccountID: billingAccount, AccountName: "Acme Bakery",
			Member: "Grace Hopper", Role: kudos.RoleOwner}},
	}
}

func (c teamCase) request(lang string) kudos.MailRequest {
	t := c.team
	name := "Ann"
	if c.purpose == kudos.MailTeamInvitation || c.purpose == kudos.MailTeamInvitationReminder {
		name = "" // the invitee's name is not known
	}
	return kudos.MailRequest{Key: "k-" + string(c.purpose) + "-" + lang, Purpose: c.purpose, To: "ann@example.com", Language: lang,
		Name: name, Link: c.link, Team: &t}
}

// TestRenderTeamMails: every team mail, in every language, carries its
// link as a button and on its own line, the account, the people it names,
// the role in the mail's language and, for an invitation, its expiry.
func TestRenderTeamMails(t *testing.T) {
	roles := map[string]map[kudos.Role]string{
		"en": {kudos.RoleAdmin: "admin", kudos.RoleMember: "member"},
		"nl": {kudos.RoleAdmin: "beheerder", kudos.RoleMember: "lid"},
		"fr": {kudos.RoleAdmin: "administrateur", kudos.RoleMember: "membre"},
	}
	for _, c := range teamCases() {
		for _, lang := range languages {
			t.Run(string(c.purpose)+"/"+lang, func(t *testing.T) {
				msg, err := Render(c.request(lang))
				if err != nil {
					t.Fatalf("Render: %v", err)
				}
				if msg.Purpose != c.purpose || !strings.Contains(msg.Subject, "Acme Bakery") {
					t.Errorf("purpose %q, subject %q", msg.Purpose, msg.Subject)
				}
				if !strings.Contains(msg.Text, "\n"+c.link+"\n") || !strings.Contains(msg.HTML, `<a href="`+c.link+`" style="display:inline-block;`) {
					t.Errorf("link missing:\n%s\n%s", msg.Text, msg.HTML)
				}
				want := []string{"Acme Bakery"}
				if c.team.Inviter != "" {
					want = append(want, c.team.Inviter, wantFacts[lang].date)
				}
				if c.team.Member != "" {
					want = append(want, c.team.Member)
				}
				if r, ok := roles[lang][c.team.Role]; ok {
					want = append(want, r)
				}
				for _, w := range want {
					if !strings.Contains(msg.Text, w) || !strings.Contains(msg.HTML, w) {
						t.Errorf("%q missing from text or HTML:\n%s", w, msg.Text)
					}
				}
				if strings.Contains(msg.Text, "<no value>") || strings.Contains(msg.HTML, "ZgotmplZ") {
					t.Errorf("template produced a placeholder:\n%s", msg.Text)
				}
			})
		}
	}
}

// TestTeamGolden compares subject and text body of every team mail with
// testdata/golden/<purpose>.<lang>.txt; go test ./mailer -update rewrites them.
func TestTeamGolden(t *testing.T) {
	for _, c := range teamCases() {
		for _, lang := range languages {
			msg, err := Render(c.request(lang))
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, string(c.purpose)+"."+lang, msg)
		}
	}
}

// checkGolden compares subject and text body of msg with
// testdata/golden/<name>.txt; go test ./mailer -update rewrites it.
func checkGolden(t *testing.T, name string, msg kudos.Message) {
	t.Helper()
	got := "Subject: " + msg.Subject + "\n\n" + msg.Text
	path := filepath.Join("testdata", "golden", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./mailer -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the rendered mail (go test ./mailer -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestTeamMailsCarryNoLinksFromNames: an account or a person may name
// itself after a link, and an invitation mails that name to any address:
// nothing a mail client would make clickable survives, and HTML is escaped.
func TestTeamMailsCarryNoLinksFromNames(t *testing.T) {
	req := teamCases()[0].request("en")
	req.Team.AccountName = `Win a prize at evil.example <b>now</b>`
	req.Team.Inviter = "Mallory https://evil.example/x"
	msg, err := Render(req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(msg.Subject+msg.Text+msg.HTML, "evil.example") {
		t.Errorf("a link reached the mail:\n%s\n%s", msg.Subject, msg.Text)
	}
	if strings.Contains(msg.HTML, "<b>") || !strings.Contains(msg.HTML, "&lt;b&gt;") {
		t.Errorf("the account's name is not escaped in HTML:\n%s", msg.HTML)
	}
}

// TestRenderTeamRefusesMissingFacts: a team mail missing what it must
// state is refused (a bad mail, not retried) rather than sent with a blank.
func TestRenderTeamRefusesMissingFacts(t *testing.T) {
	tests := []struct {
		name   string
		at     int
		change func(r *kudos.MailRequest)
	}{
		{"no team facts", 0, func(r *kudos.MailRequest) { r.Team = nil }},
		{"no link", 0, func(r *kudos.MailRequest) { r.Link = "" }},
		{"no account", 0, func(r *kudos.MailRequest) { r.Team.AccountID = uuid.Nil }},
		{"no account name", 2, func(r *kudos.MailRequest) { r.Team.AccountName = " " }},
		{"an account name that is only a link", 2, func(r *kudos.MailRequest) { r.Team.AccountName = "evil.example" }},
		{"invitation without inviter", 0, func(r *kudos.MailRequest) { r.Team.Inviter = "" }},
		{"invitation without expiry", 1, func(r *kudos.MailRequest) { r.Team.ExpiresAt = nil }},
		{"invitation without role", 0, func(r *kudos.MailRequest) { r.Team.Role = "" }},
		{"accepted without member", 2, func(r *kudos.MailRequest) { r.Team.Member = "" }},
		{"team facts on another mail", 0, func(r *kudos.MailRequest) { r.Purpose = kudos.MailPasswordChanged }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := teamCases()[tt.at].request("en")
			tt.change(&req)
			if _, err := Render(req); kudos.ErrorCode(err) != kudos.EInvalid {
				t.Errorf("err = %v, want %s", err, kudos.EInvalid)
			}
		})
	}
}
