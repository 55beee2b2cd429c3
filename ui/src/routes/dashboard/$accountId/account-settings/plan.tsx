import { createFileRoute } from '@tanstack/react-router'
import { accountQueryOptions } from '@/lib/api/get-account'
import { checkoutReturnSearch } from '@/lib/checkout-return'
import { useSuspenseQuery } from '@tanstack/react-query'
import { AccountPlanTab } from '@/features/account/components/account-plan-tab'
import { MfaPolicyCard } from '@/features/mfa/components/mfa-policy-card'

export const Route = createFileRoute('/dashboard/$accountId/account-settings/plan')({
  validateSearch: checkoutReturnSearch,
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
