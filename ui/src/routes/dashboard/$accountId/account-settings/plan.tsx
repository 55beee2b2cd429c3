import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { accountQueryOptions } from '@/lib/api/get-account'
import { useSuspenseQuery } from '@tanstack/react-query'
import { AccountPlanTab } from '@/features/account/components/account-plan-tab'
import { MfaPolicyCard } from '@/features/mfa/components/mfa-policy-card'

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
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  // The owner's two-factor policy (issue 29) sits with the account's settings; turning it off
  // asks for the password of a user who has one (issue 35).
  return (
    <div className="grid gap-4">
      <AccountPlanTab accountId={accountId} checkout={checkout} />
      {data.account.role === 'owner' ? <MfaPolicyCard accountId={accountId} on={data.account.require_mfa} hasPassword={!data.user.social_login} /> : null}
    </div>
  )
}
