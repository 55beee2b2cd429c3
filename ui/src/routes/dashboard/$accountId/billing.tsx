import { createFileRoute, Outlet } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { RouteTabs } from '@/components/route-tabs'

export const Route = createFileRoute('/dashboard/$accountId/billing')({
  component: BillingRoute,
})

function BillingRoute() {
  const { accountId } = Route.useParams()
  const { t } = useTranslation('billing')
  return (
    <RouteTabs
      title={t('title')}
      params={{ accountId }}
      className="max-w-5xl"
      tabs={[
        { to: '/dashboard/$accountId/billing/invoices', label: t('tabs.invoices') },
        { to: '/dashboard/$accountId/billing/payment-details', label: t('tabs.payment_details') },
        { to: '/dashboard/$accountId/billing/activity', label: t('tabs.activity') },
      ]}
    >
      <Outlet />
    </RouteTabs>
  )
}
