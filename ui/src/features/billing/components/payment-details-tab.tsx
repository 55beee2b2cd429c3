import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { accountQueryOptions } from '@/lib/api/get-account'

/** PLACEHOLDER: payment methods and the billing address form are later work. */
export function PaymentDetailsTab({ accountId }: { accountId: string }) {
  const { t } = useTranslation('billing')
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  const trial = data.account.subscription.plan === 'TRIAL'
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('payment_details.title')}</CardTitle>
        <CardDescription>{trial ? t('payment_details.trial') : t('payment_details.placeholder')}</CardDescription>
      </CardHeader>
    </Card>
  )
}
