package store_test

import (
	"context"
	"testing"

	"kudos"
	"kudos/internal/testenv"
)

// TestNothingIsWrittenToAnErasedAccount: a request that passed the
// membership check just before the account's erasure committed, and wrote
// just after it, put personal data back for good: the account's real name
// over the placeholder, a billing address after the erasure deleted it
// (the VIES check before saving makes that window seconds long), an
// invitation naming an address. The writes check that the account is not
// erased, under a lock the erasure's own conflicts with.
func TestNothingIsWrittenToAnErasedAccount(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	account := newAccount(t, db)
	if _, err := db.Pool.Exec(ctx, `UPDATE accounts SET deleted_at = now(), name = 'Deleted account' WHERE id = $1`, account); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM billing_addresses WHERE account_id = $1`, account); err != nil {
		t.Fatal(err)
	}
	if err := db.RenameAccount(ctx, account, "Acme again"); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Errorf("renaming an erased account: %v, want not found", err)
	}
	if _, err := db.SaveBillingAddress(ctx, account, kudos.BillingAddress{OrganizationName: "Acme BV", StreetAndNumber: "Markt 1",
		PostalCode: "3500", City: "Hasselt", Region: "Limburg", Country: "nl_BE"}, 0); kudos.ErrorCode(err) != kudos.ENotFound {
		t.Errorf("saving an erased account's billing address: %v, want not found", err)
	}
	var name string
	var addresses int
	if err := db.Pool.QueryRow(ctx, `SELECT name, (SELECT count(*) FROM billing_addresses WHERE account_id = $1) FROM accounts WHERE id = $1`,
		account).Scan(&name, &addresses); err != nil || name != "Deleted account" || addresses != 0 {
		t.Fatalf("the erased account after the writes: %q with %d addresses (%v)", name, addresses, err)
	}
}
