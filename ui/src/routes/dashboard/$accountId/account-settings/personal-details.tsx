import { createFileRoute } from '@tanstack/react-router'
import { useSuspenseQuery } from '@tanstack/react-query'
import { accountQueryOptions } from '@/lib/api/get-account'
import { PersonalDetailsTab } from '@/features/account/components/personal-details-tab'
import { DataExportCard } from '@/features/privacy/components/data-export-card'
import { PasskeysCard } from '@/features/passkeys/components/passkeys-card'
import { DeletionCard } from '@/features/privacy/components/deletion-card'
import { TwoFactorCard } from '@/features/mfa/components/two-factor-card'

export const Route = createFileRoute('/dashboard/$accountId/account-settings/personal-details')({
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(accountQueryOptions(accountId)),
  component: PersonalDetailsRoute,
})

// Personal details, two-factor authentication and passkeys (issue 29), then "your data": exports, and deleting oneself (and,
// for the owner, the account).
function PersonalDetailsRoute() {
  const { accountId } = Route.useParams()
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  const owner = data.account.role === 'owner'
  return (
    <div className="grid gap-4">
      <PersonalDetailsTab accountId={accountId} />
      <TwoFactorCard />
      <PasskeysCard socialLogin={data.user.social_login} />
      <DataExportCard accountId={accountId} isOwner={owner} />
      <DeletionCard
        accountId={accountId}
        kind="user"
        deletionAt={data.user.deletion_at}
        socialLogin={data.user.social_login}
        blockedBy={data.user.deletion_blocked_by}
      />
      {owner ? (
        <DeletionCard
          accountId={accountId}
          kind="account"
          deletionAt={data.account.deletion_at}
          socialLogin={data.user.social_login}
          stoppedRenewal={data.account.deletion_stopped_renewal}
        />
      ) : null}
    </div>
  )
}
