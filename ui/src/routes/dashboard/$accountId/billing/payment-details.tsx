import { createFileRoute } from '@tanstack/react-router'
import { useRouteRetry } from '@/components/route-retry'
import { accountQueryOptions } from '@/lib/api/get-account'
import { billingQueryOptions } from '@/features/billing/api/get-billing'
import { PaymentDetailsTab } from '@/features/billing/components/payment-details-tab'
import { PaymentDetailsFailed, PaymentDetailsPending } from '@/features/billing/components/payment-details-pending'

export const Route = createFileRoute('/dashboard/$accountId/billing/payment-details')({
  loader: ({ context: { queryClient, billingRefused }, params: { accountId } }) =>
    billingRefused
      ? undefined
      : Promise.all([
          queryClient.ensureQueryData(accountQueryOptions(accountId)),
          queryClient.ensureQueryData(billingQueryOptions(accountId)),
        ]),
  pendingComponent: PaymentDetailsPending,
  errorComponent: PaymentDetailsRouteFailed,
  component: PaymentDetailsRoute,
})

function PaymentDetailsRoute() {
  const { accountId } = Route.useParams()
  return <PaymentDetailsTab accountId={accountId} />
}

function PaymentDetailsRouteFailed() {
  const { retrying, retry } = useRouteRetry()
  return <PaymentDetailsFailed retrying={retrying} onRetry={retry} />
}
