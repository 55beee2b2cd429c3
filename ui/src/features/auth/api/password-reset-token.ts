import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

// POST /v1/auth/password-reset-token {email} → 202 {}

export function requestPasswordReset(email: string): Promise<undefined> {
  return apiRequest('/v1/auth/password-reset-token', { method: 'POST', body: { email } })
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset })
}
