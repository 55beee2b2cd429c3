package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"kudos/workflows"
)

// draftPDFs are the stored drafts (pro-forma, payment request) of the
// account's invoices, wherever they were put.
func (h *harness) draftPDFs(account string) []string {
	h.t.Helper()
	var drafts []string
	for _, prefix := range []string{"invoices/" + account + "/", "tmp/drafts/" + account + "/"} {
		keys, err := h.storage.List(context.Background(), prefix)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, k := range keys {
			if strings.Contains(k, "pro-forma-") || strings.Contains(k, "payment-request-") {
				drafts = append(drafts, k)
			}
		}
	}
	return drafts
}

// openCheckoutInvoice has the account (with a billing address) buy Starter
// and returns the id of the invoice of its open checkout: PROCESSING, its
// download a pro-forma.
func (h *harness) openCheckoutInvoice(token, account string) string {
	h.t.Helper()
	base := "/v1/accounts/" + account
	h.expect(h.do("PATCH", base+"/billing-address", validAddress(), token), 200)
	h.expect(h.do("POST", base+"/subscription", map[string]any{"plan": "STARTER"}, token), 201)
	var invoice string
	eventually(h.t, "the open checkout's invoice", func() bool {
		_ = h.db.Pool.QueryRow(context.Background(), `SELECT id::text FROM invoices WHERE account_id = $1 AND status = 'PROCESSING'`,
			account).Scan(&invoice)
		return invoice != ""
	})
	return invoice
}

// TestAccountDeletionErasesDraftPDFs: the pro-forma downloaded for an
// invoice whose checkout is open (it prints the buyer's address and VAT
// id) is deleted with the account. Before, the erasure deleted only the
// logo and the exports: the draft stayed in the bucket for good.
func TestAccountDeletionErasesDraftPDFs(t *testing.T) {
	t.Parallel()
	h := withDeletionGrace(t, 3*time.Second)
	token, account := h.signedUpUser("draft-owner@example.com")
	base := "/v1/accounts/" + account
	invoice := h.openCheckoutInvoice(token, account)
	h.expect(h.do("POST", base+"/invoices/"+invoice+"/download", nil, token), 200)
	if drafts := h.draftPDFs(account); len(drafts) != 1 {
		t.Fatalf("drafts stored before the deletion: %v, want the pro-forma", drafts)
	}

	at := h.scheduleDeletion(token, account)
	time.Sleep(time.Until(at))
	if res := h.deletionOutcome(account, at); res.Outcome != workflows.DeletionOutcomeDeleted {
		t.Fatalf("workflow %+v", res)
	}
	if drafts := h.draftPDFs(account); len(drafts) != 0 {
		t.Fatalf("drafts left after the deletion: %v", drafts)
	}
}
