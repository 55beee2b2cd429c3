import { useState, type ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { LoadFailed } from '@/components/load-failed'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { accountQueryOptions } from '@/lib/api/get-account'
import { membersQueryOptions } from '@/lib/api/get-members'
import { canManageBilling, canManageTeam } from '@/lib/roles'
import { invitationsQueryOptions } from '../api/invitations'
import { InvitationsCard } from './invitations-card'
import { InviteDialog } from './invite-dialog'
import { LeaveCard } from './leave-card'
import { MembersCard } from './members-card'
import { OwnershipCard } from './ownership-card'
import { SeatsCard } from './seats-card'
import { seatsFull, teamSeats } from './team-rules'

/** The page's frame: its one heading, the seat count and the header's action. */
function TeamFrame({ seats, action, children }: { seats?: ReactNode; action?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('team')
  return (
    <section className="mx-auto grid w-full max-w-5xl content-start gap-6 p-4 md:p-8">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold">{t('title')}</h1>
          {seats}
        </div>
        {action}
      </header>
      {children}
    </section>
  )
}

/**
 * The team page (issue 26): members with their roles, the seats, the
 * pending invitations, inviting, changing roles, removing, leaving and
 * transferring the ownership. What the caller's role may not do is not
 * shown: a member sees the list read-only. The route loader has fetched
 * the account and the members.
 */
export function TeamPage({ accountId }: { accountId: string }) {
  const { t } = useTranslation('team')
  const { data: account } = useSuspenseQuery(accountQueryOptions(accountId))
  const { data: team } = useSuspenseQuery(membersQueryOptions(accountId))
  const role = account.account.role
  const manage = canManageTeam(role)
  const invitations = useQuery({ ...invitationsQueryOptions(accountId), enabled: manage })
  // What just happened (invited, removed, …), said to screen readers and shown under the header.
  const [notice, setNotice] = useState('')
  const full = seatsFull(team.seats)
  const accountName = account.account.name
  const onlyYou = team.members.length === 1 && (invitations.data?.invitations.length ?? 0) === 0

  return (
    <TeamFrame
      seats={
        <p className="text-sm text-muted-foreground" data-testid="seats">
          {/* Two counts, each language agrees its words with one (fr "1 place utilisée sur 2", en "1 of 1 seat used"). */}
          {t('seats', { count: team.seats.used, limit: t('seats_total', { count: team.seats.limit }) })}
        </p>
      }
      action={
        manage && (
          <InviteDialog accountId={accountId} accountName={accountName} full={full} onInvited={setNotice} />
        )
      }
    >
      {manage && full && (
        <p id="team-full" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {t('full', { count: team.seats.limit })}{' '}
          {canManageBilling(role) && (
            <Link
              to="/dashboard/$accountId/plans"
              params={{ accountId }}
              search={{ for: 'plan_upgrade' }}
              className="font-medium underline underline-offset-4"
            >
              {t('full_plans_link')}
            </Link>
          )}
        </p>
      )}
      {!manage && <p className="text-sm text-muted-foreground">{t('read_only')}</p>}
      <p role="status" aria-live="polite" className={notice ? 'text-sm text-emerald-700' : 'sr-only'}>
        {notice}
      </p>
      <MembersCard
        accountId={accountId}
        accountName={accountName}
        role={role}
        userEmail={account.user.email}
        members={team.members}
        onDone={setNotice}
        empty={
          manage && onlyYou && invitations.isSuccess ? (
            <p className="text-sm text-muted-foreground" data-testid="team-empty">
              {t('members.empty')}
            </p>
          ) : null
        }
      />
      {manage && (
        <InvitationsCard accountId={accountId} invitations={invitations} onDone={setNotice} />
      )}
      {canManageBilling(role) && teamSeats(account.account.subscription) && (
        <SeatsCard accountId={accountId} subscription={account.account.subscription} seats={team.seats} />
      )}
      {role === 'owner' ? (
        <OwnershipCard
          accountId={accountId}
          accountName={accountName}
          user={account.user}
          members={team.members}
          onDone={setNotice}
        />
      ) : (
        <LeaveCard accountId={accountId} accountName={accountName} members={team.members} userEmail={account.user.email} />
      )}
    </TeamFrame>
  )
}

/** While the route loader fetches the account and the members: the frame with skeleton rows. */
export function TeamPagePending() {
  const { t } = useTranslation('team')
  return (
    <TeamFrame seats={<Skeleton className="h-4 w-32" />}>
      <Card aria-busy="true" aria-label={t('loading')} role="group">
        <CardHeader>
          <Skeleton className="h-5 w-28" />
        </CardHeader>
        <CardContent className="grid gap-4">
          {[0, 1, 2].map((row) => (
            <div key={row} className="flex items-center gap-4" data-testid="team-skeleton">
              <Skeleton className="h-4 w-40" />
              <Skeleton className="h-4 flex-1" />
              <Skeleton className="h-4 w-20" />
            </div>
          ))}
        </CardContent>
      </Card>
    </TeamFrame>
  )
}

/** The team could not be loaded: say so, with a retry. */
export function TeamPageFailed({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation('team')
  return (
    <TeamFrame>
      <Card>
        <CardHeader>
          <CardTitle>{t('members.title')}</CardTitle>
        </CardHeader>
        <CardContent>
          <LoadFailed message={t('failed')} retrying={retrying} onRetry={onRetry} />
        </CardContent>
      </Card>
    </TeamFrame>
  )
}
