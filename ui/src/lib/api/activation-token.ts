import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'

// POST /v1/auth/activation-token {email} → 202: sends a new activation e-mail.

export function requestActivationToken(email: string): Promise<undefined> {
  return apiRequest('/v1/auth/activation-token', { method: 'POST', body: { email } })
}

export function useRequestActivationToken(options: { silent?: boolean } = {}) {
  return useMutation({
    mutationFn: requestActivationToken,
    meta: { silent: options.silent },
  })
}
