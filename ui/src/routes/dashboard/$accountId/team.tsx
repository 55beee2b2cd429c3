import { createFileRoute } from '@tanstack/react-router'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useRouteRetry } from '@/components/route-retry'
import { accountQueryOptions } from '@/lib/api/get-account'
import { membersQueryOptions } from '@/lib/api/get-members'
import { i18n } from '@/lib/i18n'
import { billingTimelineQueryOptions } from '@/features/billing/api/get-billing-timeline'
import { ActivityTab } from '@/features/billing/components/activity-tab'
import { invitationsQueryOptions } from '@/features/team/api/invitations'
import { seatsCard, showsSeatsCard, TeamPage } from '@/features/team/components/team-page'
import { TeamPageFailed, TeamPagePending } from '@/features/team/components/team-page-states'

// The team page, and for the owner and admins the team's part of the
// timeline (who was invited, joined, changed role, left): admins see no
// billing, so this is where they follow the team (issue 26).
export const Route = createFileRoute('/dashboard/$accountId/team')({
  staticData: { texts: ['team', 'billing'] },
  loader: async ({ context: { queryClient }, params: { accountId }, route }) => {
    const [data] = await Promise.all([
      queryClient.ensureQueryData(accountQueryOptions(accountId)),
      queryClient.ensureQueryData(membersQueryOptions(accountId)),
      i18n.loadNamespaces(route.options.staticData?.texts ?? []),
    ])
    if (data.account.role === 'member') return
    await Promise.all([
      queryClient.ensureInfiniteQueryData(billingTimelineQueryOptions(accountId, 'team')),
      // The invitations, read early (lib/early-requests.ts), are in the page's
      // first render rather than a second render of the whole page when they
      // arrive (issue 37 item 9). Never an error here: without retries, the
      // card asks again and shows a failure itself, as before.
      queryClient.prefetchQuery({ ...invitationsQueryOptions(accountId), retry: false }),
      // The seats card's code (not part of the page's chunk), when it shows.
      showsSeatsCard(data) ? seatsCard.preload() : undefined,
    ])
  },
  pendingComponent: TeamPagePending,
  errorComponent: TeamFailed,
  component: TeamRoute,
})

function TeamRoute() {
  const { accountId } = Route.useParams()
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  return (
    <>
      <TeamPage accountId={accountId} />
      {data.account.role !== 'member' ? (
        <div className="mx-auto w-full max-w-5xl px-4 pb-8 md:px-8">
          <ActivityTab accountId={accountId} scope="team" />
        </div>
      ) : null}
    </>
  )
}

function TeamFailed() {
  const { retrying, retry } = useRouteRetry()
  return <TeamPageFailed retrying={retrying} onRetry={retry} />
}
