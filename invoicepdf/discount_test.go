package invoicepdf

import (
	"testing"

	"kudos"
)

// TestDiscountLine (issue 38 item 3): an invoice discounted by a promotion
// code prints the plan at its price, the code's line taken off it, and the
// subtotal, VAT (computed after the discount) and total of what is left,
// in each language.
func TestDiscountLine(t *testing.T) {
	inv := invoice("EUR", 21) // net 1,234.56 after the discount
	inv.Discount = &kudos.InvoiceDiscount{Code: "SPRING20", Amount: 30864}
	want := map[string][]string{
		"en": {"Promotion code SPRING20", "-€308.64", "€1,543.20", "€1,234.56", "€259.26", "€1,493.82"},
		"nl": {"Promotiecode SPRING20", "-€\u00a0308,64", "€\u00a01.543,20", "€\u00a01.234,56"},
		"fr": {"Code promo SPRING20", "-308,64\u00a0€", "1\u00a0543,20\u00a0€", "1\u00a0234,56\u00a0€"},
	}
	for lang, w := range want {
		_, text := render(t, Input{Invoice: inv, Buyer: buyer("nl_NL"), Language: lang})
		contains(t, text, w...)
	}
}
