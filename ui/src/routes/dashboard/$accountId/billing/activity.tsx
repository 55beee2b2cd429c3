import { createFileRoute } from '@tanstack/react-router'
import { useRouteRetry } from '@/components/route-retry'
import { billingQueryOptions } from '@/features/billing/api/get-billing'
import { billingTimelineQueryOptions } from '@/features/billing/api/get-billing-timeline'
import { ActivityTab, ActivityTabFailed, ActivityTabPending } from '@/features/billing/components/activity-tab'

export const Route = createFileRoute('/dashboard/$accountId/billing/activity')({
  loader: ({ context: { queryClient, billingRefused }, params: { accountId } }) => {
    if (billingRefused) return
    // Invoice numbers and the billing country; the timeline shows without them.
    void queryClient.prefetchQuery(billingQueryOptions(accountId))
    return queryClient.ensureInfiniteQueryData(billingTimelineQueryOptions(accountId))
  },
  pendingComponent: ActivityTabPending,
  errorComponent: ActivityFailed,
  component: ActivityRoute,
})

function ActivityRoute() {
  const { accountId } = Route.useParams()
  return <ActivityTab accountId={accountId} />
}

function ActivityFailed() {
  const { retrying, retry } = useRouteRetry()
  return <ActivityTabFailed retrying={retrying} onRetry={retry} />
}
