import * as v from 'valibot'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { PLANS } from '@/lib/constants'
import { queryKeys } from '@/lib/query-keys'
import { ROLES } from '@/lib/roles'

// GET /v1/accounts → {accounts: [{id, name, role, plan, last_used, …}]}: the
// accounts the signed-in user belongs to, by name (issue 26). The account
// switcher lists them; leaving an account goes to another of them.

const membershipSchema = v.object({
  id: v.string(),
  name: v.optional(v.string(), ''),
  role: v.picklist(ROLES),
  plan: v.picklist(PLANS),
  last_used: v.optional(v.boolean(), false),
})

const accountsSchema = v.object({ accounts: v.array(membershipSchema) })

export type Membership = v.InferOutput<typeof membershipSchema>

export function getAccounts(signal?: AbortSignal) {
  return apiRequest('/v1/accounts', { auth: true, signal, schema: accountsSchema })
}

export function accountsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.accounts(), queryFn: ({ signal }) => getAccounts(signal) })
}
