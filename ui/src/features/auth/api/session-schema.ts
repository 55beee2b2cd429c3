import * as v from 'valibot'

/** Answer of the calls that sign a user in: signin, activate-user, callback. */
export const sessionResponseSchema = v.object({
  token: v.pipe(v.string(), v.nonEmpty()),
  token_expiry: v.string(),
  account_id: v.string(),
})

export type SessionResponse = v.InferOutput<typeof sessionResponseSchema>

/** Where the browser goes after signing in (SPEC §4). */
export function dashboardHome(accountId: string) {
  return { to: '/dashboard/$accountId/testimonials', params: { accountId } } as const
}
