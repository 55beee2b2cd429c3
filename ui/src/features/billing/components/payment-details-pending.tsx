import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { LoadFailed } from '@/components/load-failed'
import { useTranslation } from 'react-i18next'

/** While the route loader fetches the account and GET billing: two skeleton cards. */
export function PaymentDetailsPending() {
  return (
    <div className="grid gap-4" aria-busy="true" data-testid="payment-details-skeleton">
      {[2, 5].map((rows) => (
        <Card key={rows}>
          <CardHeader>
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-64 max-w-full" />
          </CardHeader>
          <CardContent className="grid gap-3">
            {Array.from({ length: rows }, (_, i) => (
              <Skeleton key={i} className="h-9 w-full" />
            ))}
          </CardContent>
        </Card>
      ))}
    </div>
  )
}

/** The payment details could not be loaded: say so, with a retry. */
export function PaymentDetailsFailed({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation('billing')
  return (
    <Card>
      <CardContent className="pt-6">
        <LoadFailed message={t('payment_details.failed')} retrying={retrying} onRetry={onRetry} />
      </CardContent>
    </Card>
  )
}
