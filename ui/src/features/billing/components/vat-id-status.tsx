import { useTranslation } from 'react-i18next'
import { BadgeCheck, Loader2, XCircle } from 'lucide-react'
import { cn } from '@/lib/utils'
import type { VatIdStatus as Status } from '../api/get-billing'

const styles: Record<Exclude<Status, 'none'>, string> = {
  verified: 'border-emerald-600/30 bg-emerald-50 text-emerald-800',
  pending: 'border-amber-600/30 bg-amber-50 text-amber-900',
  // Not text-destructive on its 10 % tint: that is 4.1:1, under WCAG AA's 4.5:1 (issue 37).
  invalid: 'border-red-300 bg-red-50 text-red-800',
}

/**
 * How far the saved VAT id has been checked against VIES (issue 30): a badge
 * (Verified / Checking… / Invalid) with a hint; nothing without a VAT id. A
 * polite live region, so that the change from Checking… is read out.
 */
export function VatIdStatus({ status, vatId }: { status: Status; vatId: string }) {
  const { t } = useTranslation('billing')
  if (status === 'none' || !vatId) return null
  const Icon = status === 'verified' ? BadgeCheck : status === 'pending' ? Loader2 : XCircle
  return (
    <div className="grid gap-1 text-sm" role="status" aria-live="polite" data-testid="vat-id-status">
      <p className="flex flex-wrap items-center gap-2">
        <span className="text-muted-foreground">
          {t('payment_details.address.vat_status.label')} {vatId}
        </span>
        <span
          className={cn(
            'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium',
            styles[status],
          )}
        >
          <Icon aria-hidden="true" className={cn('size-3.5', status === 'pending' && 'animate-spin motion-reduce:animate-none')} />
          {t(`payment_details.address.vat_status.${status}`)}
        </span>
      </p>
      <p className="text-muted-foreground">{t(`payment_details.address.vat_status.${status}_hint`)}</p>
    </div>
  )
}
