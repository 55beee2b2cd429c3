import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { ConfirmEmailPage } from '@/features/auth/components/confirm-email-page'

const searchSchema = v.object({
  token: v.fallback(v.optional(v.string()), undefined),
})

export const Route = createFileRoute('/auth/confirm-email')({
  validateSearch: searchSchema,
  component: ConfirmEmailRoute,
})

function ConfirmEmailRoute() {
  const { token } = Route.useSearch()
  return <ConfirmEmailPage token={token} />
}
