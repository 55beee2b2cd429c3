import { PAID_PLANS, type PaidPlan, type PLANS, type PLANS_FOR } from '@/lib/constants'

// Which button a plan card shows (SPEC §2 Plans), from the page's `for`
// search value and the account's current plan.

export type PlansFor = (typeof PLANS_FOR)[number] | undefined
export type Plan = (typeof PLANS)[number]

export type PlanAction =
  /** Create a subscription for this plan (POST subscription). */
  | 'start'
  /** Pay the latest unpaid invoice of the expired plan. */
  | 'continue'
  /** Move up to this plan (PATCH subscription). */
  | 'upgrade'
  /** The plan already held: a disabled button. */
  | 'current'

export function planRank(plan: Plan): number {
  return (PAID_PLANS as readonly string[]).indexOf(plan)
}

/** The card's button, or null for none. */
export function planAction(reason: PlansFor, current: Plan, card: PaidPlan): PlanAction | null {
  switch (reason) {
    case 'trial_expired':
      return 'start'
    case 'plan_expired':
      return current === card ? 'continue' : null
    case 'plan_upgrade': {
      // A trial has nothing to upgrade: it starts a plan (a subscription is created).
      if (current === 'TRIAL') return 'start'
      const have = planRank(current)
      const offered = planRank(card)
      if (offered === have) return 'current'
      return offered > have ? 'upgrade' : null
    }
    default:
      return null
  }
}
