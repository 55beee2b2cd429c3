import { createFileRoute } from '@tanstack/react-router'
import { useRouteRetry } from '@/components/route-retry'
import { billingQueryOptions } from '@/features/billing/api/get-billing'
import { checkoutReturnSearch } from '@/lib/checkout-return'
import { InvoicesTab, InvoicesTabFailed, InvoicesTabPending } from '@/features/billing/components/invoices-tab'

// A checkout of an invoice owed after its debit came back returns here (?checkout=…).
export const Route = createFileRoute('/dashboard/$accountId/billing/invoices')({
  validateSearch: checkoutReturnSearch,
  loader: ({ context: { queryClient, billingRefused }, params: { accountId } }) =>
    billingRefused ? undefined : queryClient.ensureQueryData(billingQueryOptions(accountId)),
  pendingComponent: InvoicesTabPending,
  errorComponent: InvoicesFailed,
  component: InvoicesRoute,
})

function InvoicesRoute() {
  const { accountId } = Route.useParams()
  const { checkout } = Route.useSearch()
  return <InvoicesTab accountId={accountId} checkout={checkout} />
}

function InvoicesFailed() {
  const { retrying, retry } = useRouteRetry()
  return <InvoicesTabFailed retrying={retrying} onRetry={retry} />
}
