import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { InvitationPage } from '@/features/auth/components/invitation-page'

// A team invitation's link: /invitation?token=… (public; the token is the credential).
const searchSchema = v.object({
  token: v.fallback(v.optional(v.string()), undefined),
})

export const Route = createFileRoute('/invitation')({
  validateSearch: searchSchema,
  component: InvitationRoute,
})

function InvitationRoute() {
  const { token } = Route.useSearch()
  return <InvitationPage token={token} />
}
