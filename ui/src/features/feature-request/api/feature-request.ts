import { useMutation } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import type { FEATURE_AREAS, FEATURE_PROFILES } from '@/lib/constants'

// POST /v1/accounts/{id}/feature-request {feature_area, feature_profile, feature_description} → 200

export interface FeatureRequestInput {
  feature_area: (typeof FEATURE_AREAS)[number]
  feature_profile: (typeof FEATURE_PROFILES)[number]
  feature_description: string
}

export function sendFeatureRequest(accountId: string, input: FeatureRequestInput): Promise<undefined> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/feature-request`, {
    method: 'POST',
    auth: true,
    body: input,
  })
}

export function useSendFeatureRequest(accountId: string) {
  return useMutation({
    mutationFn: (input: FeatureRequestInput) => sendFeatureRequest(accountId, input),
  })
}
