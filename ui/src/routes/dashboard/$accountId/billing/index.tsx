import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/dashboard/$accountId/billing/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/dashboard/$accountId/billing/payment-details', params })
  },
})
