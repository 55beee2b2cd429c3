import { createFileRoute, Outlet } from '@tanstack/react-router'
import { BillingLayout } from '@/features/billing/components/billing-layout'

export const Route = createFileRoute('/dashboard/$accountId/billing')({
  component: BillingRoute,
})

function BillingRoute() {
  const { accountId } = Route.useParams()
  return (
    <BillingLayout accountId={accountId}>
      <Outlet />
    </BillingLayout>
  )
}
