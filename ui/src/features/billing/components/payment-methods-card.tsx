import { useId, useState } from 'react'
import { useSuspenseQuery } from '@tanstack/react-query'
import type { TFunction } from 'i18next'
import { useTranslation } from 'react-i18next'
import { Landmark, Trash2, WalletCards } from 'lucide-react'
import { ConfirmationDialog } from '@/components/confirmation-dialog'
import { useDeletionLock } from '@/components/deletion-lock'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { billingQueryOptions, type Mandate } from '../api/get-billing'
import { useRemovePaymentMethod } from '../api/remove-payment-method'
import { AddPaymentMethodDialog } from './add-payment-method-dialog'
import { describeMandate, type MandateView } from './billing-format'

/** "Visa ending in 4242" or "Direct debit". */
function mandateLabel(view: MandateView, t: TFunction): string {
  if (view.kind === 'directdebit') return t('payment_details.methods.directdebit')
  // Providers write brands in lower case ("visa"): "Visa ending in 4242".
  const brand = view.brand ? view.brand.charAt(0).toUpperCase() + view.brand.slice(1) : t('payment_details.methods.card_generic')
  return view.last4 ? t('payment_details.methods.card', { brand, last4: view.last4 }) : brand
}

/**
 * The payment methods (SPEC §2, §4): card or direct debit, an add dialog and
 * removal after a confirmation, impossible for the last one (mandate_count ≤ 1).
 * None is added during the account's scheduled deletion (issue 37): the add
 * button is disabled, the reason beside it.
 */
export function PaymentMethodsCard({ accountId, deletionAt }: { accountId: string; deletionAt?: string | null }) {
  const { t } = useTranslation('billing')
  const billing = useSuspenseQuery(billingQueryOptions(accountId))
  const remove = useRemovePaymentMethod(accountId)
  const [target, setTarget] = useState<Mandate | null>(null)
  const lastOneId = useId()
  const mandates = billing.data.mandates
  const canRemove = billing.data.mandate_count > 1
  const targetLabel = target ? mandateLabel(describeMandate(target), t) : ''
  const deletion = useDeletionLock(deletionAt, 'payment_method')

  const confirmRemove = () => {
    if (!target) return
    remove.mutate(target.id, { onSettled: () => setTarget(null) })
  }

  return (
    <Card>
      <CardHeader className="sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>{t('payment_details.methods.title')}</CardTitle>
          <CardDescription>{t('payment_details.methods.subtitle')}</CardDescription>
        </div>
        <AddPaymentMethodDialog accountId={accountId} lockedBy={deletion.describedBy} />
      </CardHeader>
      <CardContent className="grid gap-3">
        {deletion.notice}
        {mandates.length === 0 && (
          <p className="text-sm text-muted-foreground">{t('payment_details.methods.empty')}</p>
        )}
        {mandates.length > 0 && (
          <ul aria-label={t('payment_details.methods.list')} className="grid gap-2">
            {mandates.map((mandate) => {
              const view = describeMandate(mandate)
              const Icon = view.kind === 'card' ? WalletCards : Landmark
              return (
                <li key={mandate.id} className="flex flex-wrap items-center gap-3 rounded-md border p-3" data-method={view.kind}>
                  <Icon className="h-5 w-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <div className="grid min-w-0 flex-1 gap-0.5 text-sm">
                    <span className="font-medium whitespace-nowrap">{mandateLabel(view, t)}</span>
                    {view.kind === 'card' && view.expiry && (
                      <span className="text-muted-foreground">
                        {t('payment_details.methods.expires', { date: view.expiry })}
                      </span>
                    )}
                    {view.kind === 'directdebit' &&
                      (view.account === null ? (
                        <span className="text-destructive">{t('payment_details.methods.invalid_iban')}</span>
                      ) : (
                        <span className="font-mono text-muted-foreground">{view.account}</span>
                      ))}
                  </div>
                  {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
                  <span title={canRemove ? undefined : t('payment_details.methods.last_one')}>
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={!canRemove || remove.isPending}
                      aria-describedby={canRemove ? undefined : lastOneId}
                      onClick={() => setTarget(mandate)}
                    >
                      <Trash2 aria-hidden="true" />
                      {t('payment_details.methods.remove')}
                    </Button>
                  </span>
                </li>
              )
            })}
          </ul>
        )}
        {mandates.length > 0 && !canRemove && (
          <p id={lastOneId} className="text-xs text-muted-foreground">
            {t('payment_details.methods.last_one')}
          </p>
        )}
      </CardContent>
      <ConfirmationDialog
        open={target !== null}
        onOpenChange={(next) => !next && setTarget(null)}
        title={t('payment_details.methods.remove_dialog.title')}
        description={t('payment_details.methods.remove_dialog.text', { method: targetLabel })}
        cancelLabel={t('payment_details.methods.remove_dialog.cancel')}
        confirmLabel={t('payment_details.methods.remove_dialog.confirm')}
        destructive
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </Card>
  )
}
