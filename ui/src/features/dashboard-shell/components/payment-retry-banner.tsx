import { CreditCard } from 'lucide-react'
import { PaymentRetryMessage } from '@/components/payment-retry-message'
import type { Subscription } from '@/lib/api/get-account'
import { paymentRetry } from '@/lib/dunning'

/**
 * While a failed renewal is being retried (SPEC dunning): a banner above
 * every dashboard page, in the page's flow so it covers nothing, and not
 * dismissible: it goes when payment_retry_at does. role="alert" is
 * announced without taking focus; the shell mounts it once, not per page.
 */
export function PaymentRetryBanner({ accountId, subscription }: { accountId: string; subscription: Subscription }) {
  const retry = paymentRetry(subscription)
  if (!retry) return null
  return (
    <div
      role="alert"
      data-testid="payment-retry-banner"
      className="flex items-start gap-2 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950"
    >
      <CreditCard className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <p>
        <PaymentRetryMessage accountId={accountId} retry={retry} linkClassName="text-amber-950 hover:text-amber-800" />
      </p>
    </div>
  )
}
