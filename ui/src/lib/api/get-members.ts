import * as v from 'valibot'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import { ROLES } from '@/lib/roles'

// GET /v1/accounts/{id}/members → {members, seats}: the team page's table and
// seat count, and the plans page's "remove N members first" (seats used are
// members plus pending invitations).

export const memberSchema = v.object({
  user_id: v.string(),
  email: v.string(),
  firstname: v.optional(v.string(), ''),
  lastname: v.optional(v.string(), ''),
  role: v.picklist(ROLES),
  joined_at: v.string(),
})

export const seatsSchema = v.object({ used: v.number(), limit: v.number() })

const membersSchema = v.object({ members: v.array(memberSchema), seats: seatsSchema })

export type Member = v.InferOutput<typeof memberSchema>
export type Seats = v.InferOutput<typeof seatsSchema>

export function getMembers(accountId: string, signal?: AbortSignal) {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/members`, { auth: true, signal, schema: membersSchema })
}

export function membersQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: queryKeys.members(accountId),
    queryFn: ({ signal }) => getMembers(accountId, signal),
  })
}
