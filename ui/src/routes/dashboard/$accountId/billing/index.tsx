import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/dashboard/$accountId/billing/')({
  // main.tsx fetches the page's code with this route's (one wait less).
  staticData: { leadsTo: '/dashboard/$accountId/billing/payment-details' },
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/dashboard/$accountId/billing/payment-details', params })
  },
})
