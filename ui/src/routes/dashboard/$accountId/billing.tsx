import { createFileRoute, Outlet } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { RoleRequiredPage } from '@/components/role-required-page'
import { RouteTabs } from '@/components/route-tabs'

export const Route = createFileRoute('/dashboard/$accountId/billing')({
  staticData: { texts: ['billing'] },
  // Billing is the owner's (issue 26): anyone else gets a friendly page (not an error), and the
  // tabs' loaders skip their reads. Imported on demand: beforeLoad is not code-split, and
  // /signin's bundle has no room for the account schema.
  beforeLoad: async ({ context: { queryClient }, params: { accountId } }) => {
    const { hasRole } = await import('@/lib/api/require-role')
    return { billingRefused: !(await hasRole(queryClient, accountId, 'owner')) }
  },
  component: BillingRoute,
})

function BillingRoute() {
  const { accountId } = Route.useParams()
  const { billingRefused } = Route.useRouteContext()
  const { t } = useTranslation('billing')
  if (billingRefused) return <RoleRequiredPage area="billing" />
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
