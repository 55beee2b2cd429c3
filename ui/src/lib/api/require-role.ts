import type { QueryClient } from '@tanstack/react-query'
import { accountQueryOptions } from '@/lib/api/get-account'
import { atLeast, type Role } from '@/lib/roles'

/**
 * A route's beforeLoad check (issue 26): whether the signed-in user's role
 * in the account is at least `min`. The route then shows a friendly page
 * instead of its content, and its children's loaders skip their reads
 * (which the api would refuse with 403). An account that cannot be read
 * here counts as allowed: the dashboard layout's loader deals with it
 * (sign-in, activation, no access).
 */
export async function hasRole(queryClient: QueryClient, accountId: string, min: Role): Promise<boolean> {
  const data = await queryClient.ensureQueryData(accountQueryOptions(accountId)).catch(() => null)
  return !data || atLeast(data.account.role, min)
}
