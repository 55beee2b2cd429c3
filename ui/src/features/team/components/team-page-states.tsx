import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadFailed } from '@/components/load-failed'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'

// The team page's frame and its loading and failed states: a module apart
// from the page (team-page.tsx), which the route's pending and error
// components share with it. The page itself then rides in the route's own
// chunk, and its imports are asked for a round of requests sooner (issue 37
// item 9). The dialogs, their forms and the seats card are not among them:
// they come on demand (components/lazy-dialog.tsx, round 8).

/** The page's frame: its one heading, the seat count and the header's action. */
export function TeamFrame({ seats, action, children }: { seats?: ReactNode; action?: ReactNode; children: ReactNode }) {
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

/** The seats card while its code comes (team-page.tsx's seatsCard; the loader usually has it). */
export function SeatsCardPending() {
  const { t } = useTranslation('team')
  return (
    <Card aria-busy="true" aria-label={t('seats_card.title')} role="group" data-testid="seats-card-pending">
      <CardHeader>
        <Skeleton className="h-5 w-28" />
        <Skeleton className="h-4 w-64" />
      </CardHeader>
      <CardContent className="grid max-w-sm gap-3">
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-24" />
      </CardContent>
    </Card>
  )
}
