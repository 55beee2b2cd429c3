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

/** A used, expired or unknown token (404, 410): the page offers a new link. */
export const DEAD_LINK_STATUSES = [404, 410] as const

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword, meta: { shownInline: DEAD_LINK_STATUSES } })
}
