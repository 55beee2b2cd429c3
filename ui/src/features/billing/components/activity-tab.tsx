import type { ReactNode } from 'react'
import { useQuery, useSuspenseInfiniteQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import type { LucideIcon } from 'lucide-react'
import {
  BadgeCheck,
  BanknoteX,
  Bell,
  CalendarClock,
  CalendarX,
  CircleAlert,
  CircleArrowUp,
  CircleCheck,
  CirclePause,
  CirclePlay,
  CircleX,
  Clock,
  CreditCard,
  Crown,
  FileMinus,
  Hourglass,
  LogOut,
  MailPlus,
  MailX,
  RefreshCw,
  Rocket,
  ShieldAlert,
  ShieldCheck,
  ShieldOff,
  ShieldX,
  ShoppingCart,
  Sparkles,
  Trash2,
  TriangleAlert,
  Undo2,
  UserCog,
  UserMinus,
  UserPlus,
} from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { formatDateTime } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useDownloadInvoice } from '../api/download-invoice'
import { billingQueryOptions } from '../api/get-billing'
import { billingTimelineQueryOptions, type BillingEvent, type BillingEventType, type TimelineScope } from '../api/get-billing-timeline'
import { formatInvoiceAmount, planDisplayName } from './billing-format'
import { LoadFailed } from '@/components/load-failed'

type Tone = 'good' | 'bad' | 'warn' | 'info'

/** Each event type's icon and colour. */
const LOOK: Record<BillingEventType, { icon: LucideIcon; tone: Tone }> = {
  trial_started: { icon: Sparkles, tone: 'info' },
  trial_reminder_sent: { icon: Bell, tone: 'info' },
  trial_expired: { icon: Hourglass, tone: 'warn' },
  checkout_opened: { icon: ShoppingCart, tone: 'info' },
  checkout_cancelled: { icon: CircleX, tone: 'warn' },
  checkout_expired: { icon: Clock, tone: 'warn' },
  payment_succeeded: { icon: CircleCheck, tone: 'good' },
  payment_failed: { icon: CircleAlert, tone: 'bad' },
  plan_started: { icon: Rocket, tone: 'good' },
  plan_upgraded: { icon: CircleArrowUp, tone: 'good' },
  auto_renewal_stopped: { icon: CirclePause, tone: 'warn' },
  auto_renewal_restarted: { icon: CirclePlay, tone: 'info' },
  renewal_reminder_sent: { icon: Bell, tone: 'info' },
  renewal_succeeded: { icon: RefreshCw, tone: 'good' },
  renewal_failed: { icon: TriangleAlert, tone: 'bad' },
  payment_retry_scheduled: { icon: CalendarClock, tone: 'warn' },
  plan_expired: { icon: CalendarX, tone: 'bad' },
  payment_method_added: { icon: CreditCard, tone: 'info' },
  payment_method_removed: { icon: Trash2, tone: 'info' },
  refund: { icon: Undo2, tone: 'info' },
  member_invited: { icon: MailPlus, tone: 'info' },
  invitation_revoked: { icon: MailX, tone: 'warn' },
  member_joined: { icon: UserPlus, tone: 'good' },
  member_role_changed: { icon: UserCog, tone: 'info' },
  member_removed: { icon: UserMinus, tone: 'warn' },
  member_left: { icon: LogOut, tone: 'warn' },
  ownership_transferred: { icon: Crown, tone: 'info' },
  deletion_scheduled: { icon: CalendarX, tone: 'warn' },
  deletion_cancelled: { icon: Undo2, tone: 'info' },
  deletion_completed: { icon: Trash2, tone: 'bad' },
  credit_note_issued: { icon: FileMinus, tone: 'info' },
  second_factor_added: { icon: ShieldCheck, tone: 'good' },
  second_factor_removed: { icon: ShieldOff, tone: 'warn' },
  mfa_policy_changed: { icon: ShieldCheck, tone: 'info' },
  vat_id_checked: { icon: BadgeCheck, tone: 'info' },
  dispute_opened: { icon: ShieldAlert, tone: 'warn' },
  dispute_won: { icon: ShieldCheck, tone: 'good' },
  dispute_lost: { icon: ShieldX, tone: 'bad' },
  payment_returned: { icon: BanknoteX, tone: 'bad' },
  refund_failed: { icon: BanknoteX, tone: 'bad' },
}

/**
 * What a membership event says (issue 26), as a sentence: who it concerns,
 * the role, and who acted when someone else did; null for other events.
 */
export function teamEventText(event: BillingEvent, t: (key: string, values?: Record<string, string>) => string): string | null {
  if (!event.member_email) return null
  const values = {
    member: event.member_email,
    actor: event.actor_email ?? '',
    role: event.role ? t(`activity.roles.${event.role}`) : '',
  }
  // A second factor's event says which factor (issue 29).
  const factor = event.factor ? `_${event.factor}` : ''
  return t(`activity.team.${event.type}${factor}${event.actor_email ? '_by' : ''}`, values)
}

const TONE: Record<Tone, string> = {
  good: 'border-emerald-600/30 bg-emerald-50 text-emerald-700',
  bad: 'border-destructive/30 bg-red-50 text-destructive',
  warn: 'border-amber-500/30 bg-amber-50 text-amber-700',
  info: 'border-border bg-background text-muted-foreground',
}

const SKELETON_ROWS = 4

/** The card around the timeline (the team's part of it on the team page). */
function ActivityCard({ children, scope = 'all' }: { children: ReactNode; scope?: TimelineScope }) {
  const { t } = useTranslation('billing')
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{scope === 'team' ? t('activity.team_title') : t('activity.title')}</CardTitle>
        <CardDescription>{scope === 'team' ? t('activity.team_subtitle') : t('activity.subtitle')}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  )
}

/** While the route loader fetches the first page: skeleton entries. */
export function ActivityTabPending() {
  const { t } = useTranslation('billing')
  return (
    <ActivityCard>
      <div className="grid gap-5" aria-busy="true" aria-label={t('activity.title')} role="group">
        {Array.from({ length: SKELETON_ROWS }, (_, row) => (
          <div key={row} className="flex items-center gap-3" data-testid="activity-skeleton">
            <Skeleton round className="size-8" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-48" />
              <Skeleton className="h-3 w-32" />
            </div>
          </div>
        ))}
      </div>
    </ActivityCard>
  )
}

/** The first page failed: say so, with a retry. */
export function ActivityTabFailed({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation('billing')
  return (
    <ActivityCard>
      <LoadFailed message={t('activity.failed')} retrying={retrying} onRetry={onRetry} />
    </ActivityCard>
  )
}

/**
 * The billing timeline (issue 14): what happened to the account's plan and
 * money, newest first, as a list of entries with an icon, what happened,
 * when (a time element), the plan, the amount in the account's currency and
 * locale, and a link that downloads the invoice. "Load more" fetches the
 * next page; the route loader has fetched the first.
 */
export function ActivityTab({ accountId, scope = 'all' }: { accountId: string; scope?: TimelineScope }) {
  const { t, i18n } = useTranslation('billing')
  const timeline = useSuspenseInfiniteQuery(billingTimelineQueryOptions(accountId, scope))
  // For invoice numbers and the billing country; the invoices tab shares it.
  // The team's events name no invoice (and an admin may not read billing).
  const billing = useQuery({ ...billingQueryOptions(accountId), enabled: scope === 'all' })
  const download = useDownloadInvoice(accountId)
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  const country = billing.data?.account_billing_address?.country ?? undefined
  const numbers = new Map((billing.data?.invoices ?? []).map((invoice) => [invoice.id, invoice.invoice_url ?? '']))
  const creditNotes = new Set((billing.data?.invoices ?? []).filter((invoice) => invoice.kind === 'credit_note').map((invoice) => invoice.id))
  // A due invoice has no number until it is paid (issue 34): its download is a payment request.
  const requests = new Set(
    (billing.data?.invoices ?? []).filter((invoice) => invoice.status === 'DUE_PAYMENT' && !invoice.invoice_url).map((invoice) => invoice.id),
  )
  const events = timeline.data.pages.flatMap((page) => page.events)

  const invoiceLink = (event: BillingEvent) => {
    if (!event.invoice_id) return null
    const id = event.invoice_id
    const number = numbers.get(id) ?? ''
    const creditNote = creditNotes.has(id) && number !== ''
    const request = requests.has(id)
    const busy = download.isPending && download.variables?.id === id
    return (
      <Button
        variant="link"
        size="inline"
        loading={busy}
        aria-label={
          creditNote
            ? t('invoices.download_credit_note', { number })
            : number
              ? t('invoices.download', { number })
              : request
                ? t('invoices.download_payment_request')
                : t('invoices.download_unnumbered')
        }
        onClick={() => download.mutate({ id, number })}
      >
        {creditNote
          ? t('activity.credit_note', { number })
          : number
            ? t('activity.invoice', { number })
            : request
              ? t('activity.payment_request')
              : t('activity.invoice_unnumbered')}
      </Button>
    )
  }

  return (
    <ActivityCard scope={scope}>
      {events.length === 0 ? (
        <p className="py-8 text-center text-sm text-muted-foreground">{t(scope === 'team' ? 'activity.team_empty' : 'activity.empty')}</p>
      ) : (
        <ol aria-label={t(scope === 'team' ? 'activity.team_list' : 'activity.list')} className="relative grid gap-6 border-s border-border ps-6">
          {events.map((event) => {
            const { icon: Icon, tone } = LOOK[event.type]
            const team = teamEventText(event, t)
            const details = [
              event.plan ? t('activity.plan', { plan: planDisplayName(event.plan, t) }) : '',
              event.amount !== null && event.currency
                ? formatInvoiceAmount(event.amount, event.currency, language, country)
                : '',
            ].filter(Boolean)
            return (
              <li key={event.id} className="relative" data-type={event.type}>
                <span
                  aria-hidden="true"
                  className={cn(
                    'absolute -start-[2.55rem] top-0 flex size-8 items-center justify-center rounded-full border [&_svg]:size-4',
                    TONE[tone],
                  )}
                >
                  <Icon />
                </span>
                <p className="font-medium">{t(`activity.types.${event.type}`)}</p>
                {team && <p className="text-sm break-words">{team}</p>}
                <p className="flex flex-wrap items-center gap-x-2 text-sm text-muted-foreground">
                  <time dateTime={event.at}>{formatDateTime(event.at, language)}</time>
                  {details.map((detail) => (
                    <span key={detail} className="tabular-nums before:me-2 before:content-['·']">
                      {detail}
                    </span>
                  ))}
                </p>
                {invoiceLink(event)}
              </li>
            )
          })}
        </ol>
      )}
      <div className="mt-6 flex flex-col items-center gap-3">
        {timeline.isFetchNextPageError && (
          <LoadFailed message={t('activity.more_failed')} retrying={false} onRetry={() => void timeline.fetchNextPage()} />
        )}
        {timeline.hasNextPage && !timeline.isFetchNextPageError && (
          <Button variant="outline" loading={timeline.isFetchingNextPage} onClick={() => void timeline.fetchNextPage()}>
            {t('activity.load_more')}
          </Button>
        )}
        <p role="status" className="sr-only">
          {timeline.isFetchingNextPage ? t('activity.loading_more') : t('activity.shown', { count: events.length })}
        </p>
      </div>
    </ActivityCard>
  )
}
