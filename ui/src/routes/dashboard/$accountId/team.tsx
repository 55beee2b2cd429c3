import { createFileRoute } from '@tanstack/react-router'
import { useRouteRetry } from '@/components/route-retry'
import { accountQueryOptions } from '@/lib/api/get-account'
import { membersQueryOptions } from '@/lib/api/get-members'
import { i18n } from '@/lib/i18n'
import { TeamPage, TeamPageFailed, TeamPagePending } from '@/features/team/components/team-page'

export const Route = createFileRoute('/dashboard/$accountId/team')({
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    Promise.all([
      queryClient.ensureQueryData(accountQueryOptions(accountId)),
      queryClient.ensureQueryData(membersQueryOptions(accountId)),
      i18n.loadNamespaces('team'),
    ]),
  pendingComponent: TeamPagePending,
  errorComponent: TeamFailed,
  component: TeamRoute,
})

function TeamRoute() {
  const { accountId } = Route.useParams()
  return <TeamPage accountId={accountId} />
}

function TeamFailed() {
  const { retrying, retry } = useRouteRetry()
  return <TeamPageFailed retrying={retrying} onRetry={retry} />
}
