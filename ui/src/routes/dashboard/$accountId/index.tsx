import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/dashboard/$accountId/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/dashboard/$accountId/testimonials', params })
  },
})
