import { createElement, useEffect, useState } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { LazyConfirmationDialog, lazyPart, useLazyPart, usePreloadWhenIdle } from '@/components/lazy-dialog'
import { accountQueryOptions, type AccountData, type Subscription } from '@/lib/api/get-account'
import { membersQueryOptions, type Seats } from '@/lib/api/get-members'
import { canManageBilling, canManageTeam } from '@/lib/roles'
import { invitationsQueryOptions } from '../api/invitations'
import { InvitationsCard } from './invitations-card'
import { InviteDialog, InviteFormDialog } from './invite-dialog'
import { LeaveCard } from './leave-card'
import { MembersCard } from './members-card'
import { OwnershipCard, TransferFormDialog } from './ownership-card'
import { seatsFull, teamSeats } from './team-rules'
import { SeatsCardPending, TeamFrame } from './team-page-states'

/**
 * The seats card's code (its form is react-hook-form's, with the scheduled
 * change's dialog): not part of the team page's first load, as only an
 * active Team plan's owner sees the card. The route's loader fetches it
 * with the data when the page will show it (showsSeatsCard), so the page
 * draws once, with the card.
 */
export const seatsCard = lazyPart(() => import('./seats-card').then((m) => m.SeatsCard))

/** Whether the team page shows the seats card to this account's caller. */
export function showsSeatsCard(data: AccountData): boolean {
  return canManageBilling(data.account.role) && teamSeats(data.account.subscription)
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
  // The dialogs' code (and their forms') once the page has drawn and the browser is idle.
  usePreloadWhenIdle(
    LazyConfirmationDialog,
    ...(manage ? [InviteFormDialog] : []),
    ...(role === 'owner' ? [TransferFormDialog] : []),
  )

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
      {showsSeatsCard(account) && <LazySeatsCard accountId={accountId} subscription={account.account.subscription} seats={team.seats} />}
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

/**
 * The seats card once its code is there (the loader fetched it); its
 * skeleton otherwise, while it comes. Should it not come, the page's error
 * state (with its retry) says so, as for the route's own code.
 */
function LazySeatsCard(props: { accountId: string; subscription: Subscription; seats: Seats }) {
  const SeatsCard = useLazyPart(seatsCard)
  const [failed, setFailed] = useState<unknown>(null)
  useEffect(() => {
    if (!SeatsCard) seatsCard.preload().catch(setFailed)
  }, [SeatsCard])
  if (failed) throw failed
  return SeatsCard ? createElement(SeatsCard, props) : <SeatsCardPending />
}
