package invoicepdf

import "testing"

// BenchmarkRender is the CPU one invoice PDF costs (rendered in the
// workflow task that settles a payment).
func BenchmarkRender(b *testing.B) {
	in := Input{Invoice: invoice("EUR", 21), Buyer: buyer("nl_BE"), BuyerEmail: "owner@acme.example", Language: "nl"}
	for b.Loop() {
		if _, err := Render(in); err != nil {
			b.Fatal(err)
		}
	}
}
