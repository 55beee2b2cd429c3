package mailer

import (
	"strings"
	"testing"

	"kudos"
)

// TestRenewalReminderNamesTheScheduledPlan (issue 38 item 1): a renewal
// reminder with a lower plan scheduled names it, in its subject and body,
// in each language (text and HTML).
func TestRenewalReminderNamesTheScheduledPlan(t *testing.T) {
	amount := &kudos.Money{Amount: 56628, Currency: "EUR"}
	c := billingCase{"renewal_reminder.next", kudos.MailRenewalReminder, "https://app.kudos.localhost/plan",
		kudos.MailBilling{AccountID: billingAccount, Plan: kudos.PlanTeam, NextPlan: kudos.PlanPro, Amount: amount, Date: &march5, AutoRenew: true}}
	want := map[string][2]string{
		"en": {"Your Kudos plan changes to Pro on 5 March 2027", "your plan changes from Team to Pro on that date"},
		"nl": {"Je Kudos-abonnement wordt Pro op 5 maart 2027", "gaat je abonnement op die datum over van Team naar Pro"},
		"fr": {"Votre formule Kudos passe à Pro le 5 mars 2027", "votre formule passe de Team à Pro à cette date"},
	}
	for lang, w := range want {
		msg, err := Render(c.request(lang))
		if err != nil {
			t.Fatal(err)
		}
		if msg.Subject != w[0] || !strings.Contains(msg.Text, w[1]) || !strings.Contains(msg.HTML, w[1]) {
			t.Errorf("%s: subject %q, text:\n%s", lang, msg.Subject, msg.Text)
		}
	}
}
