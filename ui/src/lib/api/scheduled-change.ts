import * as v from 'valibot'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { checkoutSchema } from '@/lib/api/pay-invoice'
import { goToCheckout } from '@/lib/api/go-to-checkout'
import { PAID_PLANS, type PaidPlan } from '@/lib/constants'
import { queryKeys } from '@/lib/query-keys'

// Issue 38: a lower plan and fewer seats are scheduled for the renewal, more
// seats are bought at once through a checkout.
//   PATCH  /v1/accounts/{id}/subscription {plan} (a lower plan) → 200 {scheduled_plan, scheduled_at}
//   DELETE /v1/accounts/{id}/subscription/scheduled-change → 200
//   PATCH  /v1/accounts/{id}/subscription/seats {seats} → 201 {checkout_href} | 200 {scheduled_seats, scheduled_at}

const scheduledPlanSchema = v.object({
  scheduled_plan: v.nullable(v.picklist(PAID_PLANS)),
  scheduled_at: v.nullable(v.string()),
})

const seatsAnswerSchema = v.union([
  checkoutSchema,
  v.object({ checkout_href: v.null(), applied: v.literal(true) }),
  v.object({ scheduled_seats: v.nullable(v.number()), scheduled_at: v.nullable(v.string()) }),
])

const base = (accountId: string) => `/v1/accounts/${encodeURIComponent(accountId)}/subscription`

/** Schedules a lower plan for the renewal; a team too large for it is 409 seat_limit (said on the plan's card). */
export function useScheduleDowngrade(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (plan: PaidPlan) =>
      apiRequest(base(accountId), { method: 'PATCH', auth: true, body: { plan }, schema: scheduledPlanSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
    meta: { shownInlineCodes: ['seat_limit'] },
  })
}

/** Cancels the change scheduled for the renewal (a lower plan, fewer seats). */
export function useCancelScheduledChange(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      apiRequest(`${base(accountId)}/scheduled-change`, { method: 'DELETE', auth: true, schema: scheduledPlanSchema }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members(accountId) }),
      ]),
  })
}

/**
 * Sets a Team plan's seats (in all): more go to the checkout of the rest of
 * the period, fewer are scheduled for the renewal. Fewer than the team is
 * 409 seat_limit (said in the form).
 */
export function useChangeSeats(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (seats: number): Promise<'checkout' | 'scheduled'> => {
      const answer = await apiRequest(`${base(accountId)}/seats`, { method: 'PATCH', auth: true, body: { seats }, schema: seatsAnswerSchema })
      if ('checkout_href' in answer && answer.checkout_href) {
        await goToCheckout(queryClient, accountId, answer.checkout_href)
        return 'checkout'
      }
      return 'scheduled'
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.members(accountId) }),
      ]),
    meta: { shownInlineCodes: ['seat_limit'] },
  })
}
