import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TriangleAlert } from 'lucide-react'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
import { useRestartAutoRenewal } from '../api/restart-auto-renewal'
import { useStopAutoRenewal } from '../api/stop-auto-renewal'

/**
 * Stop or restart auto-renewal after a confirmation (SPEC §4: the dialog
 * toggles to the opposite value). Stopping warns that testimonials may be lost.
 */
export function AutoRenewalDialog({
  accountId,
  renewing,
  plan,
  date,
}: {
  accountId: string
  /** start_next_period: auto-renewal is on. */
  renewing: boolean
  plan: string
  date: string
}) {
  const { t } = useTranslation('account')
  const [open, setOpen] = useState(false)
  const stop = useStopAutoRenewal(accountId)
  const restart = useRestartAutoRenewal(accountId)
  const mutation = renewing ? stop : restart
  const mode = renewing ? 'stop' : 'restart'

  const confirm = () => mutation.mutate(undefined, { onSuccess: () => setOpen(false) })

  return (
    <AlertDialog open={open} onOpenChange={(next) => !mutation.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant={renewing ? 'outline' : 'default'} size="sm" className="w-fit">
          {t(`renewal.${mode}.button`)}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{t(`renewal.${mode}.title`)}</AlertDialogTitle>
          <AlertDialogDescription>{t(`renewal.${mode}.text`, { plan, date })}</AlertDialogDescription>
        </AlertDialogHeader>
        {renewing && (
          <p
            className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
            data-testid="renewal-warning"
          >
            <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            {t('renewal.stop.warning', { date })}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={mutation.isPending}>{t(`renewal.${mode}.cancel`)}</AlertDialogCancel>
          <Button variant={renewing ? 'destructive' : 'default'} loading={mutation.isPending} onClick={confirm}>
            {t(`renewal.${mode}.confirm`)}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
