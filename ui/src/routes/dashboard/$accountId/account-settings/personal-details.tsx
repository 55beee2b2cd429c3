import { createFileRoute } from '@tanstack/react-router'
import { accountQueryOptions } from '@/lib/api/get-account'
import { PersonalDetailsTab } from '@/features/account/components/personal-details-tab'

export const Route = createFileRoute('/dashboard/$accountId/account-settings/personal-details')({
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(accountQueryOptions(accountId)),
  component: PersonalDetailsRoute,
})

function PersonalDetailsRoute() {
  const { accountId } = Route.useParams()
  return <PersonalDetailsTab accountId={accountId} />
}
