import { lazy, Suspense } from 'react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { accountQueryOptions } from '@/lib/api/get-account'
import { PaymentDetailsPending } from './payment-details-pending'

/**
 * Fetches the payment details' cards (payment-details-cards.tsx): the route's
 * loader calls it once it knows the plan is not a trial, so the chunk comes
 * with the page's data, not after it.
 */
export const loadPaymentDetailsCards = () => import('./payment-details-cards')

const PaymentDetailsCards = lazy(loadPaymentDetailsCards)

/** Payment methods and the billing address; hidden during the trial (SPEC §6). */
export function PaymentDetailsTab({ accountId }: { accountId: string }) {
  const { t } = useTranslation('billing')
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  if (data.account.subscription.plan === 'TRIAL') {
    return (
      <Card>
        <CardHeader>
          <CardTitle>{t('payment_details.title')}</CardTitle>
          <CardDescription>{t('payment_details.trial')}</CardDescription>
        </CardHeader>
      </Card>
    )
  }
  return (
    <Suspense fallback={<PaymentDetailsPending />}>
      <PaymentDetailsCards accountId={accountId} deletionAt={data.account.deletion_at} organizationName={data.account.name} />
    </Suspense>
  )
}
