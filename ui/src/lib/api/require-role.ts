import type { QueryClient } from '@tanstack/react-query'
import { accountQueryOptions } from '@/lib/api/get-account'
import { atLeast, RoleRequiredError, type RestrictedArea, type Role } from '@/lib/roles'

/**
 * A route's beforeLoad guard (issue 26): throws RoleRequiredError when the
 * signed-in user's role in the account is below `min` for `area`, so that the
 * route shows a friendly page instead of its loaders' 403s. An account that
 * cannot be read here is left to the dashboard layout's loader (sign-in,
 * activation, errors).
 */
export async function requireRole(
  queryClient: QueryClient,
  accountId: string,
  area: RestrictedArea,
  min: Role,
): Promise<void> {
  const data = await queryClient.ensureQueryData(accountQueryOptions(accountId)).catch(() => null)
  if (data && !atLeast(data.account.role, min)) throw new RoleRequiredError(area)
}
