import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TriangleAlert } from 'lucide-react'
import { ConfirmationDialog } from '@/components/confirmation-dialog'
import { Button } from '@/components/ui/button'
import { useRestartAutoRenewal } from '../api/restart-auto-renewal'
import { useStopAutoRenewal } from '../api/stop-auto-renewal'

/**
 * Stop or restart auto-renewal after a confirmation (SPEC §4: the dialog
 * toggles to the opposite value). Stopping warns that testimonials may be lost.
 * `unpaid`: a failed renewal is being retried (dunning); stopping then ends
 * the plan at once (the api stops retrying), so the dialog says so.
 * `lockedBy`: the id of why a restart is refused (the account's deletion is
 * scheduled, issue 37): the restart button is disabled and points to it.
 */
export function AutoRenewalDialog({
  accountId,
  renewing,
  plan,
  date,
  unpaid = false,
  lockedBy,
}: {
  accountId: string
  /** start_next_period: auto-renewal is on. */
  renewing: boolean
  plan: string
  date: string
  unpaid?: boolean
  lockedBy?: string
}) {
  const { t } = useTranslation('account')
  const [open, setOpen] = useState(false)
  const stop = useStopAutoRenewal(accountId)
  const restart = useRestartAutoRenewal(accountId)
  const mutation = renewing ? stop : restart
  const mode = renewing ? 'stop' : 'restart'
  const locked = !renewing && lockedBy !== undefined

  const confirm = () => mutation.mutate(undefined, { onSuccess: () => setOpen(false) })

  return (
    <ConfirmationDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button
          variant={renewing ? 'outline' : 'default'}
          size="sm"
          className="w-fit"
          disabled={locked}
          aria-describedby={locked ? lockedBy : undefined}
        >
          {t(`renewal.${mode}.button`)}
        </Button>
      }
      title={t(`renewal.${mode}.title`)}
      description={t(renewing && unpaid ? 'renewal.stop.text_unpaid' : `renewal.${mode}.text`, { plan, date })}
      cancelLabel={t(`renewal.${mode}.cancel`)}
      confirmLabel={t(`renewal.${mode}.confirm`)}
      destructive={renewing}
      pending={mutation.isPending}
      onConfirm={confirm}
    >
      {renewing && (
        <p
          className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
          data-testid="renewal-warning"
        >
          <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {t(unpaid ? 'renewal.stop.warning_unpaid' : 'renewal.stop.warning', { date })}
        </p>
      )}
    </ConfirmationDialog>
  )
}
