import { createFileRoute } from '@tanstack/react-router'
import { InvoicesTab } from '@/features/billing/components/invoices-tab'

export const Route = createFileRoute('/dashboard/$accountId/billing/invoices')({
  component: InvoicesTab,
})
