import { useTranslation } from 'react-i18next'
import { BillingAddressForm, type BillingAddressValues } from '@/components/billing-address-form'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'

/**
 * The billing-details modal (SPEC internal code 423): starting a plan needs a
 * billing address first. Saving patches the address and starts the plan again.
 */
export function BillingDetailsDialog({
  open,
  organizationName,
  pending,
  error,
  onSubmit,
  onCancel,
  returnFocusTo,
}: {
  open: boolean
  organizationName: string
  pending: boolean
  error?: unknown
  onSubmit: (values: BillingAddressValues) => Promise<unknown>
  onCancel: () => void
  /** The button that led here: it was busy (disabled) meanwhile, so Radix lost it as the opener. */
  returnFocusTo?: { readonly current: HTMLElement | null }
}) {
  const { t } = useTranslation('plans')
  return (
    <Dialog open={open} onOpenChange={(next) => !next && !pending && onCancel()}>
      <DialogContent
        hideClose
        className="sm:max-w-xl"
        data-testid="billing-details-dialog"
        onCloseAutoFocus={(event) => {
          const opener = returnFocusTo?.current
          if (!opener?.isConnected) return
          event.preventDefault()
          opener.focus()
        }}
      >
        <DialogHeader>
          <DialogTitle>{t('billing_details.title')}</DialogTitle>
          <DialogDescription>{t('billing_details.description')}</DialogDescription>
        </DialogHeader>
        <BillingAddressForm
          idPrefix="plans-billing"
          defaultValues={{ organization_name: organizationName }}
          onSubmit={onSubmit}
          submitLabel={t('billing_details.submit')}
          pending={pending}
          error={error}
          secondary={
            <Button type="button" variant="link" onClick={onCancel} disabled={pending}>
              {t('common:actions.cancel')}
            </Button>
          }
        />
      </DialogContent>
    </Dialog>
  )
}
