// Package auth holds the credential machinery of Kudos: argon2id password
// hashing with bounded concurrency, session tokens (JWT naming a session row),
// single-use e-mailed tokens and the OIDC client for
// Google sign-in. It has no HTTP handlers; api/ uses it.
package auth
