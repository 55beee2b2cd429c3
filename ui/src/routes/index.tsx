import { createFileRoute, redirect } from '@tanstack/react-router'
import { getStoredAccountId, hasValidSession } from '@/lib/session'

// `/`: the stored account's dashboard with a valid session, else sign-in; a
// session that opened no account (a user being deleted, issue 35) shows
// their deletion.
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    const accountId = getStoredAccountId()
    if (hasValidSession() && accountId) {
      throw redirect({ to: '/dashboard/$accountId/testimonials', params: { accountId } })
    }
    if (hasValidSession() && accountId === '') throw redirect({ to: '/leaving' })
    throw redirect({ to: '/signin' })
  },
})
