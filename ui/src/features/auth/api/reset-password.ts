import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

// POST /v1/auth/reset-password {password, token} → 200 {}

export interface ResetPasswordInput {
  password: string
  token: string
}

export function resetPassword(input: ResetPasswordInput): Promise<undefined> {
  return apiRequest('/v1/auth/reset-password', { method: 'POST', body: input })
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword })
}
