import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { AuthCallbackPage } from '@/features/auth/components/auth-callback-page'

const searchSchema = v.object({
  code: v.fallback(v.optional(v.string()), undefined),
  state: v.fallback(v.optional(v.string()), undefined),
})

export const Route = createFileRoute('/auth/callback')({
  validateSearch: searchSchema,
  component: AuthCallbackRoute,
})

function AuthCallbackRoute() {
  const { code, state } = Route.useSearch()
  return <AuthCallbackPage code={code} state={state} />
}
