import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { SigninPage } from '@/features/auth/components/signin-page'

// ?redirect=/path: where to go after signing in (an invitation's accept page);
// only a same-origin path is followed (safeRedirect).
const searchSchema = v.object({
  redirect: v.fallback(v.optional(v.string()), undefined),
})

export const Route = createFileRoute('/signin')({
  validateSearch: searchSchema,
  component: SigninRoute,
})

function SigninRoute() {
  const { redirect } = Route.useSearch()
  return <SigninPage redirect={redirect} />
}
