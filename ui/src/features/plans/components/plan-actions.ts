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
  /** Move down to this plan at the renewal (issue 38: PATCH subscription schedules it). */
  | 'downgrade'
  /** The lower plan already scheduled for the renewal: a disabled button. */
  | 'scheduled'

/**
 * What the plans page is about: 'trial' (an active trial choosing a plan),
 * 'trial_expired', 'plan_expired', 'plan_upgrade' (an active paid plan) or
 * 'default' (a payment being processed: nothing to buy meanwhile). The real
 * subscription state decides, so an old link never tells a trial user the
 * trial has ended, and a page opened without `for` (a bookmark, a typed
 * address) still offers what fits the account (issue 37).
 */
export type PlansView = 'trial' | 'trial_expired' | 'plan_expired' | 'plan_upgrade' | 'default'

export function plansView(subscription: { plan: Plan; show_status: string }): PlansView {
  if (subscription.show_status === 'trial_expired') return 'trial_expired'
  if (subscription.show_status === 'plan_expired') return 'plan_expired'
  if (subscription.show_status === 'processing') return 'default'
  return subscription.plan === 'TRIAL' ? 'trial' : 'plan_upgrade'
}

export function planRank(plan: Plan): number {
  return (PAID_PLANS as readonly string[]).indexOf(plan)
}

/** The card's button, or null for none. `scheduled`: the lower plan the renewal starts (issue 38). */
export function planAction(view: PlansView | PlansFor, current: Plan, card: PaidPlan, scheduled: PaidPlan | null = null): PlanAction | null {
  switch (view) {
    case 'trial':
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
      if (offered > have) return 'upgrade'
      return card === scheduled ? 'scheduled' : 'downgrade'
    }
    default:
      return null
  }
}
