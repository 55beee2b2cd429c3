// Package payment groups the adapters of kudos.PaymentProvider: stripepay
// (Stripe, production) and sandbox (the local hosted checkout of
// development and tests).
package payment
