package invoicepdf

import (
	"fmt"
	"strings"

	"kudos"
)

// label names one translated piece of text on the invoice.
type label int

const (
	lTitle label = iota
	lNumber
	lIssueDate
	lStatus
	lStatusPaid
	lStatusDue
	lStatusProcessing
	lFrom
	lBilledTo
	lVATID
	lDescription
	lNet
	lVATRate
	lVAT
	lTotal
	lSubtotal
	lTotalDue
	lTotalPaid
	lNotePaid
	lNoteDue
	lThanks
	lPlanYear  // %s: plan name
	lUpgradeTo // %s: plan name
	lRenewalOf // %s: plan name
	lProForma
	lNoteProForma
	lCreditNote       // credit notes (issue 30): the title,
	lCreditNoteNumber // its number's label,
	lStatusCredited   // its status,
	lCorrects         // the label of the invoice it corrects,
	lCreditOf         // %s: the corrected invoice's number
	lTotalCredited
	lNoteCredited // %s: the corrected invoice's number
	// lReverseCharge is the legal mention of a reverse-charged invoice or
	// credit note (issue 30).
	lReverseCharge
	// lPaymentRequest titles a due invoice not numbered yet (issue 34), and
	// lNotePaymentRequest says it is not an invoice.
	lPaymentRequest
	lNotePaymentRequest
	// lOutsideEUBusiness and lOutsideEUConsumer are the legal mentions of
	// an invoice to a buyer outside the EU without VAT (issue 34).
	lOutsideEUBusiness
	lOutsideEUConsumer
	// lServicePeriod labels the period of the plan an invoice pays for
	// (Art. 226(7) VAT Directive; issue 34).
	lServicePeriod
	// lSeats describes the line of a Team plan's extra seats (issue 38):
	// %d seats at %s a year each.
	lSeats
	labelCount // keep last: the number of labels
)

// labels holds every text of the invoice in each supported language. The
// first entry is the fallback (SPEC §9: en, nl, fr with fallback en).
var labels = map[string]map[label]string{
	"en": {
		lTitle: "Invoice", lNumber: "Invoice number", lIssueDate: "Issue date", lStatus: "Status",
		lStatusPaid: "Paid", lStatusDue: "Due for payment", lStatusProcessing: "Payment processing",
		lFrom: "From", lBilledTo: "Billed to", lVATID: "VAT ID",
		lDescription: "Description", lNet: "Net", lVATRate: "VAT rate", lVAT: "VAT", lTotal: "Total",
		lSubtotal: "Subtotal", lTotalDue: "Amount due", lTotalPaid: "Amount paid",
		lNotePaid: "This invoice has been paid in full.",
		lNoteDue:  "Please pay this invoice from the Billing page of your Kudos dashboard.",
		lThanks:   "Thank you for collecting your testimonials with Kudos.",
		lPlanYear: "%s plan — 1 year", lUpgradeTo: "Upgrade to %s", lRenewalOf: "Renewal of the %s plan",
		lProForma:     "Pro forma invoice",
		lNoteProForma: "Pro forma: not yet paid, and not an invoice. The invoice with its number follows the payment.",
		lCreditNote:   "Credit note", lCreditNoteNumber: "Credit note number", lStatusCredited: "Credited",
		lCorrects: "Corrects invoice", lCreditOf: "Credit on invoice %s", lTotalCredited: "Amount credited",
		lNoteCredited:   "This credit note corrects invoice %s; the amount credited has been refunded to you.",
		lReverseCharge:  "VAT reverse charged (art. 196 VAT Directive)",
		lPaymentRequest: "Payment request",
		lNotePaymentRequest: "Payment request: not an invoice. Please pay it from the Billing page of your Kudos dashboard; " +
			"the invoice with its number follows the payment.",
		lOutsideEUBusiness: "Outside the scope of EU VAT (art. 44 VAT Directive)",
		lOutsideEUConsumer: "Outside the scope of EU VAT (art. 58 VAT Directive)",
		lServicePeriod:     "Service period",
		lSeats:             "%d extra seats × %s a year",
	},
	"nl": {
		lTitle: "Factuur", lNumber: "Factuurnummer", lIssueDate: "Factuurdatum", lStatus: "Status",
		lStatusPaid: "Betaald", lStatusDue: "Te betalen", lStatusProcessing: "Betaling wordt verwerkt",
		lFrom: "Van", lBilledTo: "Gefactureerd aan", lVATID: "Btw-nummer",
		lDescription: "Omschrijving", lNet: "Netto", lVATRate: "Btw-tarief", lVAT: "Btw", lTotal: "Totaal",
		lSubtotal: "Subtotaal", lTotalDue: "Te betalen bedrag", lTotalPaid: "Betaald bedrag",
		lNotePaid: "Deze factuur is volledig betaald.",
		lNoteDue:  "Betaal deze factuur via de pagina Facturatie in uw Kudos-dashboard.",
		lThanks:   "Bedankt dat u uw getuigenissen verzamelt met Kudos.",
		lPlanYear: "%s-abonnement — 1 jaar", lUpgradeTo: "Upgrade naar %s", lRenewalOf: "Verlenging van het %s-abonnement",
		lProForma:     "Pro-formafactuur",
		lNoteProForma: "Pro forma: nog niet betaald en geen factuur. De factuur met haar nummer volgt na de betaling.",
		lCreditNote:   "Creditnota", lCreditNoteNumber: "Creditnotanummer", lStatusCredited: "Gecrediteerd",
		lCorrects: "Corrigeert factuur", lCreditOf: "Creditering van factuur %s", lTotalCredited: "Gecrediteerd bedrag",
		lNoteCredited:   "Deze creditnota corrigeert factuur %s; het gecrediteerde bedrag is aan u terugbetaald.",
		lReverseCharge:  "Btw verlegd (art. 196 Btw-richtlijn)",
		lPaymentRequest: "Betaalverzoek",
		lNotePaymentRequest: "Betaalverzoek: geen factuur. Betaal het via de pagina Facturatie in uw Kudos-dashboard; " +
			"de factuur met haar nummer volgt na de betaling.",
		lOutsideEUBusiness: "Buiten de reikwijdte van de EU-btw (art. 44 Btw-richtlijn)",
		lOutsideEUConsumer: "Buiten de reikwijdte van de EU-btw (art. 58 Btw-richtlijn)",
		lServicePeriod:     "Periode van de dienst",
		lSeats:             "%d extra plaatsen × %s per jaar",
	},
	"fr": {
		lTitle: "Facture", lNumber: "Numéro de facture", lIssueDate: "Date d'émission", lStatus: "Statut",
		lStatusPaid: "Payée", lStatusDue: "À payer", lStatusProcessing: "Paiement en cours",
		lFrom: "Émetteur", lBilledTo: "Facturé à", lVATID: "N° de TVA",
		lDescription: "Description", lNet: "Montant HT", lVATRate: "Taux de TVA", lVAT: "TVA", lTotal: "Total TTC",
		lSubtotal: "Sous-total HT", lTotalDue: "Montant à payer", lTotalPaid: "Montant payé",
		lNotePaid: "Cette facture a été intégralement réglée.",
		lNoteDue:  "Veuillez régler cette facture depuis la page Facturation de votre tableau de bord Kudos.",
		lThanks:   "Merci de recueillir vos témoignages avec Kudos.",
		lPlanYear: "Formule %s — 1 an", lUpgradeTo: "Passage à la formule %s", lRenewalOf: "Renouvellement de la formule %s",
		lProForma:     "Facture pro forma",
		lNoteProForma: "Pro forma : pas encore payée, et pas une facture. La facture et son numéro suivent le paiement.",
		lCreditNote:   "Note de crédit", lCreditNoteNumber: "Numéro de la note de crédit", lStatusCredited: "Créditée",
		lCorrects: "Corrige la facture", lCreditOf: "Crédit sur la facture %s", lTotalCredited: "Montant crédité",
		lNoteCredited:   "Cette note de crédit corrige la facture %s ; le montant crédité vous a été remboursé.",
		lReverseCharge:  "Autoliquidation de la TVA (art. 196 de la directive TVA)",
		lPaymentRequest: "Demande de paiement",
		lNotePaymentRequest: "Demande de paiement : pas une facture. Veuillez la régler depuis la page Facturation de votre " +
			"tableau de bord Kudos ; la facture et son numéro suivent le paiement.",
		lOutsideEUBusiness: "Hors du champ d'application de la TVA de l'UE (art. 44 de la directive TVA)",
		lOutsideEUConsumer: "Hors du champ d'application de la TVA de l'UE (art. 58 de la directive TVA)",
		lServicePeriod:     "Période de service",
		lSeats:             "%d places supplémentaires × %s par an",
	},
}

// countryNames gives, per language, the name of each country of the
// billing-address locale codes (SPEC §3), keyed by the country part.
var countryNames = map[string]map[string]string{
	"en": {"BE": "Belgium", "NL": "Netherlands", "FR": "France", "GB": "United Kingdom", "DE": "Germany",
		"AT": "Austria", "CH": "Switzerland", "ES": "Spain", "PT": "Portugal", "IT": "Italy", "NO": "Norway",
		"SE": "Sweden", "FI": "Finland", "DK": "Denmark", "IS": "Iceland", "HU": "Hungary", "PL": "Poland",
		"LV": "Latvia", "LT": "Lithuania"},
	"nl": {"BE": "België", "NL": "Nederland", "FR": "Frankrijk", "GB": "Verenigd Koninkrijk", "DE": "Duitsland",
		"AT": "Oostenrijk", "CH": "Zwitserland", "ES": "Spanje", "PT": "Portugal", "IT": "Italië", "NO": "Noorwegen",
		"SE": "Zweden", "FI": "Finland", "DK": "Denemarken", "IS": "IJsland", "HU": "Hongarije", "PL": "Polen",
		"LV": "Letland", "LT": "Litouwen"},
	"fr": {"BE": "Belgique", "NL": "Pays-Bas", "FR": "France", "GB": "Royaume-Uni", "DE": "Allemagne",
		"AT": "Autriche", "CH": "Suisse", "ES": "Espagne", "PT": "Portugal", "IT": "Italie", "NO": "Norvège",
		"SE": "Suède", "FI": "Finlande", "DK": "Danemark", "IS": "Islande", "HU": "Hongrie", "PL": "Pologne",
		"LV": "Lettonie", "LT": "Lituanie"},
}

// language reduces a requested language ("nl", "fr-BE", "FR") to one of
// the supported ones; anything else falls back to English.
func language(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "_-"); i >= 0 {
		lang = lang[:i]
	}
	if _, ok := labels[lang]; ok {
		return lang
	}
	return "en"
}

// countryName names the country of a locale code such as "nl_BE" (or a bare
// "BE") in lang. An unknown value is shown as given rather than dropped: an
// address with an odd country is still better printed than hidden.
func countryName(code, lang string) string {
	if n, ok := countryNames[lang][strings.ToUpper(kudos.CountryCode(code))]; ok {
		return n
	}
	return code
}

// planName turns a plan code such as PRO into its display name, Pro.
func planName(code string) string {
	code = strings.TrimSpace(code)
	if code == "" {
		return ""
	}
	return strings.ToUpper(code[:1]) + strings.ToLower(code[1:])
}

// isPlanCode reports whether s looks like a plan code (PRO, TEAM, …) rather
// than free text that should be printed verbatim.
func isPlanCode(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < 'A' || r > 'Z') && r != '_' {
			return false
		}
	}
	return true
}

// describe renders an invoice description the way SPEC §4 shows it:
// UPGRADE_{plan} as an upgrade to the plan, PAYMENTDUE_{plan} and a bare
// plan as a year of the plan, "Renewal {plan}" as a renewal of the plan.
func describe(inv kudos.Invoice, lang string) string {
	d := strings.TrimSpace(inv.Description)
	if d == "" {
		d = kudos.InvoiceDescription(inv.Kind, inv.Plan)
	}
	t := labels[lang]
	switch {
	case strings.HasPrefix(d, "CREDITNOTE_") && inv.CorrectsNumber != "":
		return fmt.Sprintf(t[lCreditOf], inv.CorrectsNumber)
	case strings.HasPrefix(d, "CREDITNOTE_"):
		return fmt.Sprintf(t[lPlanYear], planName(strings.TrimPrefix(d, "CREDITNOTE_")))
	case strings.HasPrefix(d, "UPGRADE_"):
		return fmt.Sprintf(t[lUpgradeTo], planName(strings.TrimPrefix(d, "UPGRADE_")))
	case strings.HasPrefix(d, "PAYMENTDUE_"):
		return fmt.Sprintf(t[lPlanYear], planName(strings.TrimPrefix(d, "PAYMENTDUE_")))
	case strings.HasPrefix(d, "Renewal"):
		return fmt.Sprintf(t[lRenewalOf], planName(strings.TrimPrefix(d, "Renewal")))
	case isPlanCode(d):
		return fmt.Sprintf(t[lPlanYear], planName(d))
	}
	return d
}

// statusText is the translated status line of an invoice.
func statusText(s kudos.InvoiceStatus, lang string) string {
	switch s {
	case kudos.InvoicePaid:
		return labels[lang][lStatusPaid]
	case kudos.InvoiceProcessing:
		return labels[lang][lStatusProcessing]
	case kudos.InvoiceCredited:
		return labels[lang][lStatusCredited]
	}
	return labels[lang][lStatusDue]
}
