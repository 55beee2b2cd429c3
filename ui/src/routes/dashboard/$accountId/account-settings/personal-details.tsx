import { createFileRoute } from '@tanstack/react-router'
import { accountQueryOptions } from '@/lib/api/get-account'
import { PersonalDetailsTab } from '@/features/account/components/personal-details-tab'
import { DataExportCard } from '@/features/privacy/components/data-export-card'

export const Route = createFileRoute('/dashboard/$accountId/account-settings/personal-details')({
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(accountQueryOptions(accountId)),
  component: PersonalDetailsRoute,
})

function PersonalDetailsRoute() {
  const { accountId } = Route.useParams()
  return (
    <div className="grid gap-4">
      <PersonalDetailsTab accountId={accountId} />
      <DataExportCard accountId={accountId} isOwner={false} />
    </div>
  )
}
