package worker_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"kudos"
	"kudos/activities"
	"kudos/workflows"
)

// TestActivityContract checks every activity name the workflows call
// against the methods of activities.Activities that the worker registers:
// the method exists, and takes the context and the input type the workflows
// send. A renamed method or a changed input fails here, not in production.
func TestActivityContract(t *testing.T) {
	inputs := map[string]any{
		workflows.ActivitySendMail:              kudos.MailRequest{},
		workflows.ActivityProcessLogo:           workflows.LogoInput{},
		workflows.ActivityRefuseLogo:            workflows.LogoPublication{},
		workflows.ActivityPublishLogo:           workflows.LogoPublication{},
		workflows.ActivityDeleteObject:          "",
		workflows.ActivityOpenCheckout:          workflows.OpenCheckoutInput{},
		workflows.ActivityCloseCheckout:         workflows.CloseCheckoutInput{},
		workflows.ActivityCreateDueInvoice:      workflows.DueInvoiceInput{},
		workflows.ActivityChargeRenewal:         workflows.RenewalInput{},
		workflows.ActivityRenderInvoicePDF:      workflows.InvoicePDFInput{},
		workflows.ActivityWriteSubscription:     workflows.WriteSubscriptionInput{},
		workflows.ActivityExpireCheckout:        workflows.ExpireCheckoutInput{},
		workflows.ActivityLoadCheckout:          workflows.CheckoutRef{},
		workflows.ActivityRefundCheckout:        workflows.RefundInput{},
		workflows.ActivityVerifyPaymentMethod:   workflows.CheckoutRef{},
		workflows.ActivitySettlePaidCheckout:    workflows.SettlePaidInput{},
		workflows.ActivitySettlePayment:         workflows.SettlePaymentInput{},
		workflows.ActivityQueueBillingMail:      workflows.BillingMailInput{},
		workflows.ActivityLoadLifecycle:         workflows.LifecycleInput{},
		workflows.ActivityCancelRenewalCharge:   workflows.RenewalInput{},
		workflows.ActivityMarkEventsApplied:     workflows.MarkEventsAppliedInput{},
		workflows.ActivityQueueInvitationMail:   workflows.InvitationMailInput{},
		workflows.ActivityExpireInvitation:      workflows.InvitationRef{},
		workflows.ActivityBuildExport:           workflows.ExportRef{},
		workflows.ActivityPublishExport:         workflows.ExportPublish{},
		workflows.ActivityExpireExport:          workflows.ExportExpiry{},
		workflows.ActivityAccountDeletionAt:     workflows.AccountRef{},
		workflows.ActivityEraseAccount:          workflows.AccountRef{},
		workflows.ActivityEndSubscription:       workflows.AccountRef{},
		workflows.ActivityDeleteCustomer:        workflows.CustomerRef{},
		workflows.ActivityUserDeletionAt:        workflows.UserRef{},
		workflows.ActivityEraseUser:             workflows.UserRef{},
		workflows.ActivityCheckVATID:            workflows.VATCheckInput{},
		workflows.ActivityRecordVATCheck:        workflows.RecordVATCheckInput{},
		workflows.ActivityQuoteHolds:            workflows.CheckoutRef{},
		workflows.ActivityReconcileHousekeeping: time.Time{},
		workflows.ActivityReconcileAccounts:     workflows.ReconcileProgress{},
		workflows.ActivityBookRefund:            workflows.BookRefundInput{},
		workflows.ActivityRecordDispute:         workflows.DisputeInput{},
		workflows.ActivityReturnPayment:         workflows.ReturnInput{},
		workflows.ActivityRefundErasedCharge:    workflows.ChargeRefundInput{},
		workflows.ActivityRecordRefundFailure:   workflows.RefundFailureInput{},
		workflows.ActivityCancelOpenCharges:     workflows.CustomerRef{},
		workflows.ActivityRefundStrayCharge:     workflows.StrayChargeInput{},
		// No input.
		workflows.ActivityReconcileSubscriptions: nil,
		workflows.ActivityReconcileProvider:      nil,
	}
	if len(inputs) != len(workflows.ActivityNames) {
		t.Fatalf("the test names %d activities, workflows.ActivityNames %d", len(inputs), len(workflows.ActivityNames))
	}
	acts := reflect.TypeOf(&activities.Activities{})
	ctxType := reflect.TypeOf((*context.Context)(nil)).Elem()
	for _, name := range workflows.ActivityNames {
		in, ok := inputs[name]
		if !ok {
			t.Errorf("%s: no expected input in this test", name)
			continue
		}
		m, ok := acts.MethodByName(name)
		if !ok {
			t.Errorf("%s: activities.Activities has no such method", name)
			continue
		}
		if in == nil {
			if m.Type.NumIn() != 2 || m.Type.In(1) != ctxType {
				t.Errorf("%s: method is %v, want func(context.Context)", name, m.Type)
			}
			continue
		}
		if m.Type.NumIn() != 3 || m.Type.In(1) != ctxType || m.Type.In(2) != reflect.TypeOf(in) {
			t.Errorf("%s: method is %v, want func(context.Context, %T)", name, m.Type, in)
		}
	}
}
