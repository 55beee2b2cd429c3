package sandbox

import "strings"

// OffSession is how a saved card answers a later charge without the
// customer present.
type OffSession string

// How saved test cards answer off-session charges.
const (
	OffSessionSucceed      OffSession = "succeed"
	OffSessionDecline      OffSession = "decline"
	OffSessionAuthenticate OffSession = "authenticate"
	// OffSessionPendingSucceed and OffSessionPendingFail are SEPA mandates:
	// a charge stays processing until settled (POST /dev/sandbox/settle),
	// then succeeds or fails.
	OffSessionPendingSucceed OffSession = "pending_succeed"
	OffSessionPendingFail    OffSession = "pending_fail"
)

// TestCard is one of Stripe's test card numbers, which the sandbox's hosted
// checkout accepts and which behave as they do at Stripe (ARCHITECTURE §4).
type TestCard struct {
	Number string
	Last4  string
	// SEPA marks Stripe's SEPA Direct Debit test IBANs: a checkout paid
	// with one is pending until settled (SettlesAs then says how).
	SEPA      bool
	SettlesAs string
	// DeclinedAtCheckout cards never pay; the others pay and are saved.
	DeclinedAtCheckout bool
	OffSession         OffSession
	// Label says on the hosted page what the card does.
	Label string
}

// TestCards are the accepted cards; the first is the default.
var TestCards = []TestCard{
	{Number: "4242424242424242", Last4: "4242", OffSession: OffSessionSucceed, Label: "succeeds"},
	{Number: "4000000000009995", Last4: "9995", DeclinedAtCheckout: true, Label: "declined at checkout (insufficient funds)"},
	{Number: "4000000000000341", Last4: "0341", OffSession: OffSessionDecline, Label: "succeeds; later off-session charges are declined"},
	{Number: "4000002500003155", Last4: "3155", OffSession: OffSessionAuthenticate, Label: "succeeds; later off-session charges need authentication"},
	{Number: "DE89370400440532013000", Last4: "3000", SEPA: true, SettlesAs: "paid", OffSession: OffSessionPendingSucceed,
		Label: "SEPA Direct Debit: pending until settled, then succeeds (later charges too)"},
	{Number: "DE62370400440532013001", Last4: "3001", SEPA: true, SettlesAs: "failed", OffSession: OffSessionPendingFail,
		Label: "SEPA Direct Debit: pending until settled, then fails (later charges too)"},
}

// CardByNumber finds a test card (or IBAN) by its number (spaces ignored);
// "" is the default card.
func CardByNumber(number string) (TestCard, bool) {
	number = strings.ReplaceAll(number, " ", "")
	if number == "" {
		return TestCards[0], true
	}
	for _, c := range TestCards {
		if c.Number == number {
			return c, true
		}
	}
	return TestCard{}, false
}
