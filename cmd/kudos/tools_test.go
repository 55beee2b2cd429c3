package main

import (
	"errors"
	"testing"
)

// TestRefundArgs: `kudos ops refund` reads the invoice (or --failed and a
// refund id), --amount in major units and --reason, in any order; a
// missing reason or invoice, a second invoice, both an invoice and
// --failed, or an unknown flag is the usage; a bad amount says why.
func TestRefundArgs(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		invoice string
		failed  string
		amount  int64 // -1: none
		reason  string
		usage   bool
		bad     bool
	}{
		{args: []string{"KUD-2026-000001", "--amount", "12.34", "--reason", "goodwill"}, invoice: "KUD-2026-000001", amount: 1234, reason: "goodwill"},
		{args: []string{"--reason=outage in March", "KUD-2026-000001"}, invoice: "KUD-2026-000001", amount: -1, reason: "outage in March"},
		{args: []string{"--amount=5", "--reason", "x", "inv"}, invoice: "inv", amount: 500, reason: "x"},
		{args: []string{"--amount", "0.5", "--reason", "x", "inv"}, invoice: "inv", amount: 50, reason: "x"},
		{args: []string{"--failed", "refund:co_1", "--reason", "bank closed"}, failed: "refund:co_1", amount: -1, reason: "bank closed"},
		{args: []string{"--reason=x", "--amount=5", "--failed=ops-refund:ab"}, failed: "ops-refund:ab", amount: 500, reason: "x"},
		{args: []string{"inv", "--failed", "refund:co_1", "--reason", "x"}, usage: true},
		{args: []string{"--failed", "--reason", "x"}, usage: true},
		{args: []string{"KUD-2026-000001"}, usage: true},
		{args: []string{"--reason", "x"}, usage: true},
		{args: []string{"a", "b", "--reason", "x"}, usage: true},
		{args: []string{"a", "--force", "--reason", "x"}, usage: true},
		{args: []string{"a", "--reason"}, usage: true},
		{args: []string{"a", "--amount", "12.345", "--reason", "x"}, bad: true},
		{args: []string{"a", "--amount", "-3", "--reason", "x"}, bad: true},
		{args: []string{"a", "--amount", "0", "--reason", "x"}, bad: true},
	} {
		a, err := refundArgs(tc.args)
		invoice, amount, reason := a.invoice, a.amount, a.reason
		switch {
		case tc.usage:
			if !errors.Is(err, errUsage) {
				t.Errorf("%q: %v, want the usage", tc.args, err)
			}
		case tc.bad:
			if err == nil || errors.Is(err, errUsage) {
				t.Errorf("%q: %v, want an invalid amount", tc.args, err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.args, err)
		case invoice != tc.invoice || a.failed != tc.failed || reason != tc.reason || (amount == nil) != (tc.amount == -1) || (amount != nil && *amount != tc.amount):
			t.Errorf("%q: %q %v %q", tc.args, invoice, amount, reason)
		}
	}
}
