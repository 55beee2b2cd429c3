import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { PLANS_FOR } from '@/lib/constants'
import { accountQueryOptions } from '@/lib/api/get-account'
import { PlansPage } from '@/features/plans/components/plans-page'

const searchSchema = v.object({
  for: v.fallback(v.optional(v.picklist(PLANS_FOR)), undefined),
})

export const Route = createFileRoute('/dashboard/$accountId/plans')({
  validateSearch: searchSchema,
  // Prices are fetched by the page itself (cards show a skeleton meanwhile): a
  // loader prefetch would pull the pricing schema into the entry chunk /signin loads.
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(accountQueryOptions(accountId)),
  component: PlansRoute,
})

function PlansRoute() {
  const { accountId } = Route.useParams()
  const search = Route.useSearch()
  return <PlansPage accountId={accountId} reason={search.for} />
}
