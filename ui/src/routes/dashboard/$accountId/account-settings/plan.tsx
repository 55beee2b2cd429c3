import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { accountQueryOptions } from '@/lib/api/get-account'
import { AccountPlanTab } from '@/features/account/components/account-plan-tab'

// The payment provider sends the customer back here with ?checkout=success or ?checkout=cancelled
// (the sandbox also with ?checkout=failed for a card declined at checkout).
const searchSchema = v.object({
  checkout: v.fallback(v.optional(v.picklist(['success', 'cancelled', 'failed'])), undefined),
})

export const Route = createFileRoute('/dashboard/$accountId/account-settings/plan')({
  validateSearch: searchSchema,
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(accountQueryOptions(accountId)),
  component: PlanTabRoute,
})

function PlanTabRoute() {
  const { accountId } = Route.useParams()
  const { checkout } = Route.useSearch()
  return <AccountPlanTab accountId={accountId} checkout={checkout} />
}
