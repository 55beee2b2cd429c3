import { createFileRoute } from '@tanstack/react-router'
import { accountQueryOptions } from '@/lib/api/get-account'
import { AccountPlanTab } from '@/features/account/components/account-plan-tab'

export const Route = createFileRoute('/dashboard/$accountId/account-settings/plan')({
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(accountQueryOptions(accountId)),
  component: PlanTabRoute,
})

function PlanTabRoute() {
  const { accountId } = Route.useParams()
  return <AccountPlanTab accountId={accountId} />
}
