import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { saveSession } from '@/lib/session'
import { sessionResponseSchema } from './session-schema'

// PUT /v1/auth/activate-user {token} → 201 session (the user is signed in).

export function activateUser(token: string) {
  return apiRequest('/v1/auth/activate-user', {
    method: 'PUT',
    body: { token },
    schema: sessionResponseSchema,
  })
}

export function useActivateUser() {
  return useMutation({
    mutationFn: activateUser,
    onSuccess: (session) => saveSession(session),
    // The page itself shows the invalid / expired link state.
    meta: { silent: true },
  })
}
