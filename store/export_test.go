package store

// The statements the plan tests of package store_test explain.
var (
	AccountErasure     = accountErasure
	UserAddressErasure = userAddressErasure
	StintsSQL          = stintsSQL
	UserErasure        = append([]string{invitedToSQL}, userErasure...)
)

// Credited adds up an invoice's credit notes.
const Credited = creditedSQL
