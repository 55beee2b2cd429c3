import { createFileRoute } from '@tanstack/react-router'
import { accountQueryOptions } from '@/lib/api/get-account'
import { PaymentDetailsTab } from '@/features/billing/components/payment-details-tab'

export const Route = createFileRoute('/dashboard/$accountId/billing/payment-details')({
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(accountQueryOptions(accountId)),
  component: PaymentDetailsRoute,
})

function PaymentDetailsRoute() {
  const { accountId } = Route.useParams()
  return <PaymentDetailsTab accountId={accountId} />
}
