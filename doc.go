// Package kudos holds the domain of the Kudos product: its entities (users,
// accounts, subscriptions, sessions), their validation rules, the one error
// model shared by every layer, and the interfaces that the adapters around it
// implement (store, mail, payments, storage).
//
// This package imports no other package of the project: api/, store/,
// activities/ and workflows/ import it, never the other way round.
package kudos
