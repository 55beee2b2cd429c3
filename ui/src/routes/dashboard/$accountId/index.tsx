import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/dashboard/$accountId/')({
  // main.tsx fetches the page's code with this route's (one wait less).
  staticData: { leadsTo: '/dashboard/$accountId/testimonials/' },
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/dashboard/$accountId/testimonials', params })
  },
})
