import type { FailedPayment, Subscription } from '@/lib/api/get-account'

/** A failed renewal charge that is being retried (dunning; show_status stays active). */
export interface PaymentRetry {
  /** The next automatic attempt (RFC 3339). */
  retryAt: string
  /** The payment being retried, when the api says. */
  failedPayment: FailedPayment | null
}

/**
 * The payment retry the customer must hear about, or null: only while a next
 * attempt is pending (payment_retry_at set). A failed payment without one is
 * dunning ending (renewed or expired a moment later): nothing to act on.
 */
export function paymentRetry(subscription: Pick<Subscription, 'payment_retry_at' | 'failed_payment'>): PaymentRetry | null {
  if (!subscription.payment_retry_at) return null
  return { retryAt: subscription.payment_retry_at, failedPayment: subscription.failed_payment }
}
