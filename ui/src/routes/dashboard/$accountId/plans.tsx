import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { useRouteRetry } from '@/components/route-retry'
import { PLANS_FOR } from '@/lib/constants'
import { accountQueryOptions } from '@/lib/api/get-account'
import { pricingQueryOptions } from '@/lib/api/get-pricing'
import { PlansPage, PlansPageFailed, PlansPagePending } from '@/features/plans/components/plans-page'

// The links into the page say why (SPEC §2); the page itself follows the subscription (plansView).
const searchSchema = v.object({
  for: v.fallback(v.optional(v.picklist(PLANS_FOR)), undefined),
})

export const Route = createFileRoute('/dashboard/$accountId/plans')({
  validateSearch: searchSchema,
  // The loader is code-split (vite.config.ts), so the pricing schema stays out of /signin's chunks.
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    Promise.all([
      queryClient.ensureQueryData(accountQueryOptions(accountId)),
      queryClient.ensureQueryData(pricingQueryOptions(accountId)),
    ]),
  pendingComponent: PlansPagePending,
  errorComponent: PlansFailed,
  component: PlansRoute,
})

function PlansRoute() {
  const { accountId } = Route.useParams()
  return <PlansPage accountId={accountId} />
}

function PlansFailed() {
  const { retrying, retry } = useRouteRetry()
  return <PlansPageFailed retrying={retrying} onRetry={retry} />
}
