package invoicepdf

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/ledongthuc/pdf"

	"kudos"
)

// issued is the date of every test invoice.
var issued = time.Date(2026, 3, 5, 10, 30, 0, 0, time.UTC)

// invoice is a paid Pro invoice of net 1,234.56 at rate percent.
func invoice(currency string, rate float64) kudos.Invoice {
	vat, total := kudos.AddVAT(123456, rate)
	return kudos.Invoice{Number: "KUD-2026-000042", Kind: kudos.InvoiceSubscription, Plan: kudos.PlanPro,
		Description: kudos.InvoiceDescription(kudos.InvoiceSubscription, kudos.PlanPro),
		Net:         123456, VAT: vat, VATRate: rate, Total: total, Currency: currency,
		Status: kudos.InvoicePaid, CreatedAt: issued, Service: servicePeriod}
}

// buyer is a billing address in country.
func buyer(country string) *kudos.BillingAddress {
	return &kudos.BillingAddress{OrganizationName: "Acme Testimonials", StreetAndNumber: "Main Street 1",
		StreetAdditional: "Floor 3", PostalCode: "9000", City: "Gent", Region: "Oost-Vlaanderen",
		Country: country, VATID: "BE0987654321"}
}

// render renders in and returns the PDF and its extracted text, failing the
// test on any error.
func render(t *testing.T, in Input) ([]byte, string) {
	t.Helper()
	b, err := Render(in)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("read back: %v", err)
	}
	if n := r.NumPage(); n != 1 {
		t.Errorf("pages = %d, want 1", n)
	}
	plain, err := r.GetPlainText()
	if err != nil {
		t.Fatalf("extract text: %v", err)
	}
	text, err := io.ReadAll(plain)
	if err != nil {
		t.Fatalf("extract text: %v", err)
	}
	return b, string(text)
}

// contains fails the test for every want missing from text.
func contains(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q\n--- text ---\n%s", w, text)
		}
	}
}

func TestRenderLanguagesBuyersCurrencies(t *testing.T) {
	type amounts struct{ total, vat, rate string }
	currencies := []struct {
		code, country string
		rate          float64
		want          map[string]amounts
		countryName   map[string]string
	}{
		{"EUR", "nl_BE", 21, map[string]amounts{
			"en": {"€1,493.82", "€259.26", "21%"}, "nl": {"€\u00a01.493,82", "€\u00a0259,26", "21%"},
			"fr": {"1\u00a0493,82\u00a0€", "259,26\u00a0€", "21 %"}},
			map[string]string{"en": "Belgium", "nl": "België", "fr": "Belgique"}},
		{"GBP", "en_GB", 20, map[string]amounts{
			"en": {"£1,481.47", "£246.91", "20%"}, "nl": {"£\u00a01.481,47", "£\u00a0246,91", "20%"},
			"fr": {"1\u00a0481,47\u00a0£", "246,91\u00a0£", "20 %"}},
			map[string]string{"en": "United Kingdom", "nl": "Verenigd Koninkrijk", "fr": "Royaume-Uni"}},
		{"USD", "de_CH", 8.1, map[string]amounts{
			"en": {"$1,334.56", "$100.00", "8.1%"}, "nl": {"$\u00a01.334,56", "$\u00a0100,00", "8,1%"},
			"fr": {"1\u00a0334,56\u00a0$", "100,00\u00a0$", "8,1 %"}},
			map[string]string{"en": "Switzerland", "nl": "Zwitserland", "fr": "Suisse"}},
		{"SEK", "sv_SE", 25, map[string]amounts{
			"en": {"SEK\u00a01,543.20", "SEK\u00a0308.64", "25%"}, "nl": {"SEK\u00a01.543,20", "SEK\u00a0308,64", "25%"},
			"fr": {"1\u00a0543,20\u00a0SEK", "308,64\u00a0SEK", "25 %"}},
			map[string]string{"en": "Sweden", "nl": "Zweden", "fr": "Suède"}},
	}
	fixed := map[string][]string{
		"en": {"Invoice", "Issue date", "Paid", "Pro plan — 1 year", "Net", "VAT rate", "Total", "Billed to"},
		"nl": {"Factuur", "Factuurdatum", "Betaald", "Pro-abonnement — 1 jaar", "Netto", "Btw-tarief", "Totaal",
			"Gefactureerd aan"},
		"fr": {"Facture", "Date d'émission", "Payée", "Formule Pro — 1 an", "Montant HT", "Taux de TVA",
			"Total TTC", "Facturé à"},
	}
	for _, lang := range []string{"en", "nl", "fr"} {
		for _, withBuyer := range []bool{true, false} {
			for _, c := range currencies {
				name := lang + "/" + c.code + "/without-buyer"
				if withBuyer {
					name = lang + "/" + c.code + "/with-buyer"
				}
				t.Run(name, func(t *testing.T) {
					in := Input{Invoice: invoice(c.code, c.rate), BuyerEmail: "owner@acme.example", Language: lang}
					if withBuyer {
						in.Buyer = buyer(c.country)
					}
					b, text := render(t, in)
					if !bytes.HasPrefix(b, []byte("%PDF")) {
						t.Errorf("output starts with %q, want %%PDF", b[:min(8, len(b))])
					}
					if len(b) >= 200<<10 {
						t.Errorf("size = %d bytes, want < 200 KB", len(b))
					}
					w := c.want[lang]
					contains(t, text, "KUD-2026-000042", "05/03/2026", w.total, w.vat, w.rate,
						"owner@acme.example", "NL859123456B01")
					contains(t, text, fixed[lang]...)
					if withBuyer {
						contains(t, text, "Acme Testimonials", "BE0987654321", "Main Street 1", "Floor 3",
							"9000 Gent", "Oost-Vlaanderen", c.countryName[lang])
					} else if strings.Contains(text, "Acme Testimonials") {
						t.Error("buyer organization printed without a buyer")
					}
				})
			}
		}
	}
}

func TestRenderAccentedNames(t *testing.T) {
	b := buyer("fr_BE")
	b.OrganizationName = "Société Générale Ørsted"
	b.StreetAndNumber = "Rue de l'Été 5 – Müllerstraße"
	b.City = "Liège"
	_, text := render(t, Input{Invoice: invoice("EUR", 21), Buyer: b, Language: "fr"})
	contains(t, text, "Société Générale Ørsted", "Rue de l'Été 5 – Müllerstraße", "9000 Liège", "1\u00a0493,82\u00a0€",
		"Émetteur", "Facturé à")
}

func TestRenderFoldsLettersOutsideCP1252(t *testing.T) {
	b := buyer("pl_PL")
	b.OrganizationName = "Łódź Győr Rīga"
	_, text := render(t, Input{Invoice: invoice("EUR", 23), Buyer: b})
	contains(t, text, "Lódz Gyor Riga")
}

func TestRenderDescriptions(t *testing.T) {
	tests := []struct {
		kind kudos.InvoiceKind
		want map[string]string
	}{
		{kudos.InvoiceSubscription, map[string]string{"en": "Pro plan — 1 year", "nl": "Pro-abonnement — 1 jaar",
			"fr": "Formule Pro — 1 an"}},
		{kudos.InvoiceUpgrade, map[string]string{"en": "Upgrade to Pro", "nl": "Upgrade naar Pro",
			"fr": "Passage à la formule Pro"}},
		{kudos.InvoiceRenewal, map[string]string{"en": "Renewal of the Pro plan",
			"nl": "Verlenging van het Pro-abonnement", "fr": "Renouvellement de la formule Pro"}},
		{kudos.InvoicePaymentDue, map[string]string{"en": "Pro plan — 1 year", "nl": "Pro-abonnement — 1 jaar",
			"fr": "Formule Pro — 1 an"}},
	}
	for _, tt := range tests {
		for lang, want := range tt.want {
			t.Run(string(tt.kind)+"/"+lang, func(t *testing.T) {
				inv := invoice("EUR", 21)
				inv.Kind, inv.Description = tt.kind, kudos.InvoiceDescription(tt.kind, kudos.PlanPro)
				if got := describe(inv, lang); got != want {
					t.Errorf("describe = %q, want %q", got, want)
				}
				inv.Description = "" // falls back to Kind and Plan
				_, text := render(t, Input{Invoice: inv, Language: lang})
				contains(t, text, want)
			})
		}
	}
}

func TestRenderStatusDue(t *testing.T) {
	inv := invoice("EUR", 21)
	inv.Status = kudos.InvoiceDue
	for lang, want := range map[string][]string{
		"en": {"Due for payment", "Amount due"}, "nl": {"Te betalen", "Te betalen bedrag"},
		"fr": {"À payer", "Montant à payer"},
	} {
		_, text := render(t, Input{Invoice: inv, Language: lang})
		contains(t, text, want...)
	}
}

func TestRenderRefusesUnfinishedInvoices(t *testing.T) {
	noNumber := invoice("EUR", 21)
	noNumber.Number = "  "
	noDate := invoice("EUR", 21)
	noDate.CreatedAt = time.Time{}
	for name, tt := range map[string]struct {
		inv  kudos.Invoice
		want error
	}{"no number": {noNumber, ErrNoNumber}, "no date": {noDate, ErrNoDate}} {
		t.Run(name, func(t *testing.T) {
			b, err := Render(Input{Invoice: tt.inv, Buyer: buyer("nl_BE")})
			if !errors.Is(err, tt.want) || b != nil {
				t.Errorf("Render = %d bytes, %v; want nil, %v", len(b), err, tt.want)
			}
		})
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	in := Input{Invoice: invoice("EUR", 21), Buyer: buyer("nl_BE"), Language: "nl"}
	first, _ := render(t, in)
	time.Sleep(1100 * time.Millisecond) // the metadata clock has one-second resolution
	second, _ := render(t, in)
	if !bytes.Equal(first, second) {
		t.Error("two renderings of the same invoice differ")
	}
	if !bytes.Contains(first, []byte("D:20260305103000")) {
		t.Error("creation date is not the invoice date")
	}
}

func TestRenderFallbacks(t *testing.T) {
	_, text := render(t, Input{Invoice: invoice("EUR", 21), Language: "de"})
	contains(t, text, "Invoice", "Kudos B.V.", "billing@kudos.example", "Netherlands")

	s := Seller{Name: "Other Ltd", Street: "1 High St", PostalCode: "EC1A 1AA", City: "London", Country: "en_GB",
		VATID: "GB123456789", Email: "ar@other.example"}
	_, text = render(t, Input{Invoice: invoice("GBP", 20), Language: "nl-BE", Seller: s})
	contains(t, text, "Factuur", "Other Ltd", "EC1A 1AA London", "Verenigd Koninkrijk", "GB123456789")
}

func TestFilename(t *testing.T) {
	for number, want := range map[string]string{"KUD-2026-000042": "KUD-2026-000042.pdf", "A/B": "A-B.pdf"} {
		if got := Filename(kudos.Invoice{Number: number}); got != want {
			t.Errorf("Filename(%q) = %q, want %q", number, got, want)
		}
	}
}

// TestProForma: an invoice whose payment is not settled renders as a
// pro-forma in each language: titled so, without a number, saying it is not
// yet paid. Only PROCESSING invoices (and due ones, TestPaymentRequest) may
// lack a number.
func TestProForma(t *testing.T) {
	for lang, want := range map[string][]string{
		"en": {"Pro forma invoice", "not yet paid"},
		"nl": {"Pro-formafactuur", "nog niet betaald"},
		"fr": {"Facture pro forma", "pas encore payée"},
	} {
		inv := invoice("EUR", 21)
		inv.Number, inv.Status = "", kudos.InvoiceProcessing
		_, text := render(t, Input{Invoice: inv, Buyer: buyer("nl_BE"), BuyerEmail: "a@example.com", Language: lang})
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q missing from %q", lang, w, text)
			}
		}
		if got := Filename(inv); !strings.HasPrefix(got, "pro-forma-") {
			t.Errorf("%s: file name %q", lang, got)
		}
	}
	paid := invoice("EUR", 21)
	paid.Number = ""
	if _, err := Render(Input{Invoice: paid}); err != ErrNoNumber {
		t.Errorf("a paid invoice without a number: %v, want ErrNoNumber", err)
	}
}

// TestEncoderMatchesFPDFCodePage checks the encoder against fpdf's own
// cp1252 table: the same byte for every rune the core fonts can show, and
// no byte for any other (those are folded).
func TestEncoderMatchesFPDFCodePage(t *testing.T) {
	tr := fpdf.New("P", "mm", "A4", "").UnicodeTranslatorFromDescriptor("")
	for r := rune(0); r <= 0x2FFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		want := tr(string(r))
		got, ok := cp1252(r)
		switch {
		case r != '.' && want == ".":
			if ok {
				t.Fatalf("U+%04X: encoder gives %#x, fpdf has no glyph", r, got)
			}
		case !ok || want != string([]byte{got}):
			t.Fatalf("U+%04X: encoder gives %#x (%v), fpdf %q", r, got, ok, want)
		}
	}
}
