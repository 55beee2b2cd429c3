import { BillingAddressCard } from './billing-address-card'
import { PaymentMethodsCard } from './payment-methods-card'

/**
 * The payment details of a plan that is not a trial: its payment methods and
 * billing address. A chunk of its own (payment-details-tab.tsx loads it
 * lazily): its forms and dialogs (react-hook-form, Radix's select and
 * dialog) are three rounds of requests a trial's payment details page does
 * not need (issue 37 item 9).
 */
export default function PaymentDetailsCards({ accountId, deletionAt, organizationName }: {
  accountId: string
  deletionAt?: string | null
  organizationName: string
}) {
  return (
    <div className="grid gap-4">
      <PaymentMethodsCard accountId={accountId} deletionAt={deletionAt} />
      <BillingAddressCard accountId={accountId} organizationName={organizationName} />
    </div>
  )
}
