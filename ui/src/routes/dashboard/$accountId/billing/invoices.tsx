import { createFileRoute } from '@tanstack/react-router'
import { InvoicesTab } from '@/features/billing/components/invoices-tab'

// No loader: the invoices are fetched by the tab (skeleton rows meanwhile), so
// the billing schema stays out of the entry chunk.
export const Route = createFileRoute('/dashboard/$accountId/billing/invoices')({
  component: InvoicesRoute,
})

function InvoicesRoute() {
  const { accountId } = Route.useParams()
  return <InvoicesTab accountId={accountId} />
}
