import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { accountQueryOptions } from '@/lib/api/get-account'
import { BillingAddressCard } from './billing-address-card'
import { PaymentMethodsCard } from './payment-methods-card'

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
    <div className="grid gap-4">
      <PaymentMethodsCard accountId={accountId} deletionAt={data.account.deletion_at} />
      <BillingAddressCard accountId={accountId} organizationName={data.account.name} />
    </div>
  )
}
