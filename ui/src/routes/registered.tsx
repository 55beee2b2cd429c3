import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { RegisteredPage } from '@/features/auth/components/registered-page'

const searchSchema = v.object({
  created: v.fallback(v.optional(v.string()), undefined),
})

export const Route = createFileRoute('/registered')({
  validateSearch: searchSchema,
  component: RegisteredRoute,
})

function RegisteredRoute() {
  const { created } = Route.useSearch()
  return <RegisteredPage email={created} />
}
