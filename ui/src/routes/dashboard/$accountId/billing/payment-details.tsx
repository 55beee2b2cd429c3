import { createFileRoute } from '@tanstack/react-router'
import { useRouteRetry } from '@/components/route-retry'
import { accountQueryOptions } from '@/lib/api/get-account'
import { billingQueryOptions } from '@/features/billing/api/get-billing'
import { loadPaymentDetailsCards, PaymentDetailsTab } from '@/features/billing/components/payment-details-tab'
import { PaymentDetailsFailed, PaymentDetailsPending } from '@/features/billing/components/payment-details-pending'

export const Route = createFileRoute('/dashboard/$accountId/billing/payment-details')({
  loader: ({ context: { queryClient, billingRefused }, params: { accountId } }) =>
    billingRefused
      ? undefined
      : Promise.all([
          // A plan's payment details draw cards of their own chunk: fetched
          // with the data, once the account says it is not a trial.
          queryClient.ensureQueryData(accountQueryOptions(accountId)).then((data) =>
            data.account.subscription.plan === 'TRIAL' ? undefined : loadPaymentDetailsCards()),
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
