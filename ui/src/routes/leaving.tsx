import { createFileRoute, redirect } from '@tanstack/react-router'
import { LeavingPage } from '@/features/auth/components/leaving-page'
import { hasValidSession } from '@/lib/session'

// `/leaving`: a signed-in user whose own deletion is scheduled and who
// belongs to no account (their sign-in answered account_id "", issue 35).
export const Route = createFileRoute('/leaving')({
  beforeLoad: () => {
    if (!hasValidSession()) throw redirect({ to: '/signin' })
  },
  component: LeavingPage,
})
