package store

// The statements the plan tests of package store_test explain.
var (
	AccountErasure     = accountErasure
	UserAddressErasure = userAddressErasure
	UserErasure        = append([]string{invitedToSQL}, userErasure...)
)
