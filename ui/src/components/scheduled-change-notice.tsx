import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CalendarClock } from 'lucide-react'
import { ConfirmationDialog } from '@/components/confirmation-dialog'
import { Button } from '@/components/ui/button'
import type { Subscription } from '@/lib/api/get-account'
import { useCancelScheduledChange } from '@/lib/api/scheduled-change'
import { PLAN_SEATS } from '@/lib/constants'
import { formatLongDate } from '@/lib/format'

/**
 * The change scheduled for the renewal (issue 38): "Pro from 12 March 2027",
 * or the seats kept, and for the owner a way to cancel it after a
 * confirmation. Nothing when none is scheduled. Shown on the plan tab and
 * the plans page.
 */
export function ScheduledChangeNotice({
  accountId,
  subscription,
  canCancel,
}: {
  accountId: string
  subscription: Subscription
  /** The owner may cancel it (issue 26: the plan is the owner's). */
  canCancel: boolean
}) {
  const { t, i18n } = useTranslation('plans')
  const [open, setOpen] = useState(false)
  const cancel = useCancelScheduledChange(accountId)
  const { scheduled_plan: plan, scheduled_extra_seats: extra, scheduled_at: at } = subscription
  if (!at || (!plan && extra === null)) return null
  const date = formatLongDate(at, i18n.resolvedLanguage ?? i18n.language ?? 'en')
  const what = plan
    ? t('scheduled_change.plan_from', { plan: t(`common:plans.${plan}`), date })
    : t('scheduled_change.seats_from', { count: PLAN_SEATS.TEAM + (extra ?? 0), date })

  return (
    <div className="grid gap-2 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950" data-testid="scheduled-change">
      <p className="flex items-start gap-2 font-medium">
        <CalendarClock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        {what}
      </p>
      <p>{t('scheduled_change.explain')}</p>
      {canCancel && (
        <ConfirmationDialog
          open={open}
          onOpenChange={setOpen}
          trigger={
            <Button variant="outline" size="sm" className="w-fit">
              {t('scheduled_change.cancel.button')}
            </Button>
          }
          title={t('scheduled_change.cancel.title')}
          description={t('scheduled_change.cancel.text', { date, plan: t(`common:plans.${subscription.plan}`) })}
          cancelLabel={t('scheduled_change.cancel.keep')}
          confirmLabel={t('scheduled_change.cancel.confirm')}
          pending={cancel.isPending}
          onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setOpen(false) })}
        />
      )}
    </div>
  )
}
