import { createFileRoute } from '@tanstack/react-router'
import { useRouteRetry } from '@/components/route-retry'
import { billingQueryOptions } from '@/features/billing/api/get-billing'
import { InvoicesTab, InvoicesTabFailed, InvoicesTabPending } from '@/features/billing/components/invoices-tab'

export const Route = createFileRoute('/dashboard/$accountId/billing/invoices')({
  loader: ({ context: { queryClient, billingRefused }, params: { accountId } }) =>
    billingRefused ? undefined : queryClient.ensureQueryData(billingQueryOptions(accountId)),
  pendingComponent: InvoicesTabPending,
  errorComponent: InvoicesFailed,
  component: InvoicesRoute,
})

function InvoicesRoute() {
  const { accountId } = Route.useParams()
  return <InvoicesTab accountId={accountId} />
}

function InvoicesFailed() {
  const { retrying, retry } = useRouteRetry()
  return <InvoicesTabFailed retrying={retrying} onRetry={retry} />
}
