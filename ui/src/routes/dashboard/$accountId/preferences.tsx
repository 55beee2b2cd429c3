import { createFileRoute } from '@tanstack/react-router'
import { accountQueryOptions } from '@/lib/api/get-account'
import { PreferencesPage } from '@/features/preferences/components/preferences-page'

export const Route = createFileRoute('/dashboard/$accountId/preferences')({
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(accountQueryOptions(accountId)),
  component: PreferencesRoute,
})

function PreferencesRoute() {
  const { accountId } = Route.useParams()
  return <PreferencesPage accountId={accountId} />
}
