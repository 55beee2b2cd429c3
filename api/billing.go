package api

import (
	"fmt"
	"kudos/invoicepdf"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"kudos"
)

// registerBillingRoutes adds the billing overview and payment methods of
// SPEC §7.
func (s *Server) registerBillingRoutes(acc fiber.Router) {
	acc.Get("/billing", s.billing)
	acc.Get("/billing/timeline", s.billingTimeline)
	acc.Post("/billing/payment-methods", s.addPaymentMethod)
	acc.Delete("/billing/payment-methods", s.removePaymentMethod)
	acc.Post("/invoices/:invoiceId/download", s.downloadInvoice)
}

// InvoiceDownloadTTL is how long an invoice download link works.
const InvoiceDownloadTTL = 5 * time.Minute

// DraftPrefix is where the drafts of invoices (pro-formas, payment
// requests) are stored: under the temporary prefix, which the bucket's
// lifecycle expires after a day (a draft is rendered again at each
// download; its link works InvoiceDownloadTTL).
const DraftPrefix = "tmp/drafts/"

// downloadInvoice answers a short-lived link to the invoice's PDF, saved as
// "{invoice number}.pdf". Another account's invoice is 404. An invoice not
// final yet (its checkout is open, SPEC §2 still shows a download icon)
// gets a pro-forma, rendered now: marked as not yet paid, without a number;
// a due invoice, numbered only once paid (issue 34), a payment request,
// rendered now the same way. A draft is stored under DraftPrefix (the
// bucket's lifecycle expires it), recorded first so that the account's
// erasure deletes it. Each draft costs a render and a write, so an
// account renders at most 20 an hour (429 with Retry-After beyond; a
// final invoice's link costs neither and is not limited). A credit note
// downloads like an invoice.
func (s *Server) downloadInvoice(c fiber.Ctx) error {
	inv, err := s.pathInvoice(c)
	if err != nil {
		return err
	}
	if inv.Number == "" && (inv.Status == kudos.InvoiceProcessing || inv.Status == kudos.InvoiceDue) {
		if err := allow(c, s.limits.drafts, inv.AccountID.String()); err != nil {
			return err
		}
		draft := "pro-forma"
		if inv.Status == kudos.InvoiceDue {
			draft = "payment-request"
		}
		key := fmt.Sprintf("%s%s/%s-%s.pdf", DraftPrefix, inv.AccountID, draft, inv.ID)
		if err := s.DB.RecordInvoiceDraft(ctx(c), inv.AccountID, key); err != nil {
			return err
		}
		if err := s.renderAndStore(c, inv, key); err != nil {
			return err
		}
		return s.link(c, inv, key)
	}
	key, err := s.DB.InvoicePDF(ctx(c), accountID(c), inv.ID)
	if err != nil {
		return err
	}
	if key == "" && inv.IsCreditNote() {
		// A credit note of a refund made by hand (kudos mark-refund-made)
		// has no worker to render it: drawn now from its snapshot, the
		// same bytes at the same key as the worker's.
		key = invoicepdf.Key(inv.AccountID, inv.Number)
		if err := s.renderAndStore(c, inv, key); err != nil {
			return err
		}
		if err := s.DB.SetInvoicePDF(ctx(c), inv.ID, key); err != nil {
			return err
		}
	}
	if key == "" || s.Storage == nil {
		return kudos.Errorf(kudos.EConflict, "the PDF of this invoice is being prepared, please try again in a moment")
	}
	return s.link(c, inv, key)
}

// link answers a short-lived link to the stored PDF key of inv, saved as
// invoicepdf.Filename names it.
func (s *Server) link(c fiber.Ctx, inv *kudos.Invoice, key string) error {
	u, err := s.Storage.PresignGet(ctx(c), key, invoicepdf.Filename(*inv), InvoiceDownloadTTL)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"presigned_url": u})
}

// renderAndStore renders inv now (a pro-forma of an invoice whose payment
// is not settled, or a credit note not rendered yet) and stores it at key,
// replacing what was there.
func (s *Server) renderAndStore(c fiber.Ctx, inv *kudos.Invoice, key string) error {
	if s.Storage == nil {
		return kudos.Errorf(kudos.EUnavailable, "downloads are unavailable right now")
	}
	pdf, err := invoicepdf.RenderFrom(ctx(c), s.DB, *inv)
	if err != nil {
		return err
	}
	return s.Storage.Put(ctx(c), key, pdf, "application/pdf")
}

// invoiceView is an invoice as SPEC §3 names its fields.
type invoiceView struct {
	ID          uuid.UUID           `json:"id"`
	InvoiceURL  string              `json:"invoice_url"`
	CreatedAt   string              `json:"created_at"`
	Description string              `json:"description"`
	Amount      float64             `json:"amount"`
	Currency    string              `json:"currency"`
	Status      kudos.InvoiceStatus `json:"status"`
	// Kind is invoice or credit_note (issue 30); Corrects is, on a credit
	// note only, the id of the invoice it corrects.
	Kind     string     `json:"kind"`
	Corrects *uuid.UUID `json:"corrects,omitempty"`
}

// Document kinds of the billing read's items.
const (
	kindInvoice    = "invoice"
	kindCreditNote = "credit_note"
)

// newInvoiceView is inv as the billing read lists it.
func newInvoiceView(inv kudos.Invoice) invoiceView {
	v := invoiceView{ID: inv.ID, InvoiceURL: inv.Number, CreatedAt: inv.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"),
		Description: inv.Description, Amount: float64(inv.Total) / 100, Currency: inv.Currency, Status: inv.Status, Kind: kindInvoice}
	if inv.IsCreditNote() {
		v.Kind, v.Corrects = kindCreditNote, inv.Corrects
	}
	return v
}

// mandateView is a payment method as SPEC §3 names its fields.
type mandateView struct {
	ID      string         `json:"id"`
	Method  string         `json:"method"`
	Details mandateDetails `json:"details"`
}

type mandateDetails struct {
	ConsumerAccount string `json:"consumerAccount,omitempty"`
	CardNumber      string `json:"cardNumber,omitempty"`
	CardExpiryDate  string `json:"cardExpiryDate,omitempty"`
	CardLabel       string `json:"cardLabel,omitempty"`
}

type billingResponse struct {
	Invoices              []invoiceView         `json:"invoices"`
	Mandates              []mandateView         `json:"mandates"`
	MandateCount          int                   `json:"mandate_count"`
	AccountBillingAddress *kudos.BillingAddress `json:"account_billing_address"`
}

// billing answers invoices (newest first), payment methods and the billing
// address.
func (s *Server) billing(c fiber.Ctx) error {
	id := accountID(c)
	invoices, err := s.DB.Invoices(ctx(c), id)
	if err != nil {
		return err
	}
	methods, err := s.paymentMethods(ctx(c), id)
	if err != nil {
		return err
	}
	addr, err := s.DB.BillingAddress(ctx(c), id)
	if err != nil {
		return err
	}
	out := billingResponse{Invoices: []invoiceView{}, Mandates: []mandateView{}, AccountBillingAddress: addr}
	for _, inv := range invoices {
		out.Invoices = append(out.Invoices, newInvoiceView(inv))
	}
	for _, pm := range methods {
		v := mandateView{ID: pm.ID, Method: pm.Method}
		if pm.Method == "card" {
			v.Details = mandateDetails{CardNumber: pm.CardNumber, CardLabel: pm.Brand,
				CardExpiryDate: fmtExpiry(pm.CardExpiryMonth, pm.CardExpiryYear)}
		} else {
			v.Details.ConsumerAccount = pm.ConsumerAccount
		}
		out.Mandates = append(out.Mandates, v)
	}
	out.MandateCount = len(out.Mandates)
	return c.JSON(out)
}

// fmtExpiry is a card expiry as YYYY-MM (the UI shows MM/YY).
func fmtExpiry(month, year int) string {
	if month < 1 || month > 12 || year < 2000 {
		return ""
	}
	return fmt.Sprintf("%04d-%02d", year, month)
}

// addPaymentMethod opens a hosted checkout that saves a new payment method
// (a verification charge of 0.01, refunded at once; Stripe: setup mode).
// An account opens at most 5 an hour and 20 a day (429 beyond): each is a
// call to the provider and a charge.
func (s *Server) addPaymentMethod(c fiber.Ctx) error {
	if err := s.notBeingDeleted(c); err != nil {
		return err
	}
	if err := s.requireSecondFactor(c, session(c).UserID); err != nil {
		return err
	}
	id := accountID(c)
	if err := allow(c, s.limits.pmCheckoutHour, id.String()); err != nil {
		return err
	}
	if err := allow(c, s.limits.pmCheckoutDay, id.String()); err != nil {
		return err
	}
	email, err := s.DB.OwnerEmail(ctx(c), id)
	if err != nil {
		return err
	}
	back := s.Config.PublicURL + "/dashboard/" + id.String() + "/billing/payment-details"
	req := kudos.CheckoutRequest{
		CheckoutID: "pm_" + uuid.NewString(), AccountID: id, CustomerEmail: email, Purpose: kudos.CheckoutPaymentMethod,
		Description: "Kudos payment method verification", Amount: kudos.Money{Amount: kudos.VerificationCharge, Currency: s.Config.Prices.Currency},
		SuccessURL: back, CancelURL: back, ExpiresAt: s.DB.Now().Add(s.Config.CheckoutTTL),
	}
	co, err := s.Payments.CreateCheckout(ctx(c), req)
	if err != nil {
		return err
	}
	// Recorded like every checkout, so that its payment event is known to
	// the subscription workflow (it saves a card, and bills nothing).
	if err := s.DB.RecordCheckout(ctx(c), kudos.CheckoutRecord{ID: req.CheckoutID, AccountID: id, Purpose: req.Purpose,
		Provider: s.Payments.Name(), ProviderID: co.ProviderID, URL: co.URL, ExpiresAt: req.ExpiresAt}); err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(checkoutResponse{CheckoutHref: co.URL})
}

type removeMandateRequest struct {
	MandateID string `json:"mandate_id"`
}

// removePaymentMethod detaches a payment method; the last one stays (a plan
// must be able to renew), and another account's is 404.
func (s *Server) removePaymentMethod(c fiber.Ctx) error {
	var req removeMandateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.MandateID == "" || len(req.MandateID) > 255 {
		return kudos.FieldErrors{"mandate_id": kudos.FRequired}.Err()
	}
	id := accountID(c)
	methods, err := s.Payments.PaymentMethods(ctx(c), id)
	if err != nil {
		return err
	}
	found := false
	for _, pm := range methods {
		found = found || pm.ID == req.MandateID
	}
	if !found {
		return kudos.NotFound()
	}
	if len(methods) <= 1 {
		return kudos.Errorf(kudos.EConflict, "the last payment method cannot be removed")
	}
	if err := s.Payments.DetachPaymentMethod(ctx(c), id, req.MandateID); err != nil {
		return err
	}
	s.forgetPaymentMethods(id)
	// The provider holds payment methods, not Postgres: the removal is
	// recorded once it is done there (once per method).
	if err := s.DB.RecordBillingEvent(ctx(c), kudos.BillingEvent{AccountID: id, Type: kudos.EventPaymentMethodRemoved,
		Key: string(kudos.EventPaymentMethodRemoved) + ":" + req.MandateID}); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// pathInvoice loads the invoice named in the path, of the path's account
// (another account's is 404).
func (s *Server) pathInvoice(c fiber.Ctx) (*kudos.Invoice, error) {
	id, err := pathUUID(c, "invoiceId")
	if err != nil {
		return nil, err
	}
	return s.DB.Invoice(ctx(c), accountID(c), id)
}
