import { createFileRoute, redirect } from '@tanstack/react-router'
import { getStoredAccountId, hasValidSession } from '@/lib/session'

// `/`: the stored account's dashboard with a valid session, else sign-in.
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    const accountId = getStoredAccountId()
    if (hasValidSession() && accountId) {
      throw redirect({ to: '/dashboard/$accountId/testimonials', params: { accountId } })
    }
    throw redirect({ to: '/signin' })
  },
})
