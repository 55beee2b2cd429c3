import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import type { PaymentRetry } from '@/lib/dunning'
import { formatAmount, formatLongDate } from '@/lib/format'
import { cn } from '@/lib/utils'

/**
 * "Your payment of €217.80 failed. We'll try again on 5 March 2027." and the
 * link "Update your payment method" to billing/payment-details: the words of
 * the dashboard's dunning banner and of the plan tab. Inline content: the
 * caller gives the container (and its role).
 */
export function PaymentRetryMessage({
  accountId,
  retry,
  linkClassName,
}: {
  accountId: string
  retry: PaymentRetry
  linkClassName?: string
}) {
  const { t, i18n } = useTranslation('common')
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  const date = formatLongDate(retry.retryAt, language)
  const payment = retry.failedPayment
  return (
    <>
      <span>
        {payment
          ? t('payment_retry.failed', { amount: formatAmount(payment.amount, payment.currency, language), date })
          : t('payment_retry.failed_unknown_amount', { date })}
      </span>{' '}
      <Link
        to="/dashboard/$accountId/billing/payment-details"
        params={{ accountId }}
        className={cn('font-semibold underline underline-offset-4', linkClassName)}
      >
        {t('payment_retry.update_payment_method')}
      </Link>
    </>
  )
}
