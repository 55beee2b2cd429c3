import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/dashboard/$accountId/account-settings/')({
  // main.tsx fetches the page's code with this route's (one wait less).
  staticData: { leadsTo: '/dashboard/$accountId/account-settings/plan' },
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/dashboard/$accountId/account-settings/plan', params })
  },
})
