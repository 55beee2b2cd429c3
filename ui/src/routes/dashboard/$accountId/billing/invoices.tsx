import { createFileRoute, useRouter } from '@tanstack/react-router'
import { useState } from 'react'
import { billingQueryOptions } from '@/features/billing/api/get-billing'
import { InvoicesTab, InvoicesTabFailed, InvoicesTabPending } from '@/features/billing/components/invoices-tab'

export const Route = createFileRoute('/dashboard/$accountId/billing/invoices')({
  loader: ({ context: { queryClient }, params: { accountId } }) =>
    queryClient.ensureQueryData(billingQueryOptions(accountId)),
  pendingComponent: InvoicesTabPending,
  errorComponent: InvoicesFailed,
  component: InvoicesRoute,
})

function InvoicesRoute() {
  const { accountId } = Route.useParams()
  return <InvoicesTab accountId={accountId} />
}

function InvoicesFailed() {
  const router = useRouter()
  const [retrying, setRetrying] = useState(false)
  const retry = () => {
    setRetrying(true)
    void router.invalidate().finally(() => setRetrying(false))
  }
  return <InvoicesTabFailed retrying={retrying} onRetry={retry} />
}
