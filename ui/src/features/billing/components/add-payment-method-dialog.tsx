import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Plus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { isApiError } from '@/lib/api-client'
import { pricingQueryOptions } from '@/lib/api/get-pricing'
import { useAddPaymentMethod } from '../api/add-payment-method'
import { formatInvoiceAmount } from './billing-format'
import { useBusyUntilLeave } from './use-busy-until-leave'

/** SPEC §9: adding a payment method charges 0.01 in the account's currency, refunded at once. */
export const VERIFICATION_CHARGE = 0.01

/**
 * Explains the verification charge, then follows the provider's checkout
 * link. `lockedBy`: the id of why adding one is refused (the account's
 * deletion is scheduled, issue 37): the button is disabled and points to it.
 */
export function AddPaymentMethodDialog({ accountId, lockedBy }: { accountId: string; lockedBy?: string }) {
  const { t, i18n } = useTranslation('billing')
  const [open, setOpen] = useState(false)
  const add = useAddPaymentMethod(accountId)
  const [busy, setBusy] = useBusyUntilLeave<true>()
  const pricing = useQuery({ ...pricingQueryOptions(accountId), enabled: open })
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  const amount = formatInvoiceAmount(VERIFICATION_CHARGE, pricing.data?.currency ?? '', language)
  const limited = isApiError(add.error) && add.error.status === 429 ? add.error : null
  const minutes = limited ? Math.max(1, Math.ceil((limited.retryAfter ?? 3600) / 60)) : 0

  const confirm = () => {
    setBusy(true)
    add.mutate(undefined, { onError: () => setBusy(null) })
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (busy !== null) return
        if (next) add.reset()
        setOpen(next)
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="w-fit" disabled={lockedBy !== undefined} aria-describedby={lockedBy}>
          <Plus aria-hidden="true" />
          {t('payment_details.methods.add')}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('payment_details.methods.add_dialog.title')}</DialogTitle>
          <DialogDescription>{t('payment_details.methods.add_dialog.text')}</DialogDescription>
        </DialogHeader>
        <p className="rounded-md border bg-muted/50 px-3 py-2 text-sm" data-testid="verification-charge">
          {t('payment_details.methods.add_dialog.charge', { amount })}
        </p>
        {limited && (
          <p role="alert" className="rounded-md border border-destructive/50 px-3 py-2 text-sm text-destructive">
            {t('payment_details.methods.add_dialog.rate_limited', { minutes })}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)} disabled={busy !== null}>
            {t('payment_details.methods.add_dialog.cancel')}
          </Button>
          <Button onClick={confirm} loading={busy !== null}>
            {t('payment_details.methods.add_dialog.confirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
