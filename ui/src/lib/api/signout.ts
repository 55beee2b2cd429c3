import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { apiRequest } from '@/lib/api-client'
import { clearSession } from '@/lib/session'

// POST /v1/auth/signout → 204. Whatever the answer, the session is cleared and
// the browser goes to sign-in (or wherever `leave` takes it: the invitation
// page stays, signed out); the cache is dropped only after leaving the
// dashboard so that no mounted query refetches without a token.

export function signout(): Promise<undefined> {
  return apiRequest('/v1/auth/signout', { method: 'POST', auth: true })
}

export function useSignout(leave?: () => Promise<unknown> | void) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useMutation({
    mutationFn: signout,
    meta: { silent: true },
    onSettled: async () => {
      clearSession()
      await (leave ? leave() : navigate({ to: '/signin' }))
      queryClient.clear()
    },
  })
}
