import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/dashboard/$accountId/account-settings/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/dashboard/$accountId/account-settings/plan', params })
  },
})
