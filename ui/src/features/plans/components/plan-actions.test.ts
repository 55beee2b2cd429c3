import { describe, expect, it } from 'vitest'
import { PAID_PLANS } from '@/lib/constants'
import { planAction, plansView, type Plan, type PlanAction, type PlansFor, type PlansView } from './plan-actions'

type Row = [PlansFor, Plan, [PlanAction | null, PlanAction | null, PlanAction | null]]

// Columns: the Starter, Pro and Team cards.
const table: Row[] = [
  ['trial_expired', 'TRIAL', ['start', 'start', 'start']],
  ['trial_expired', 'PRO', ['start', 'start', 'start']],
  ['plan_expired', 'STARTER', ['continue', null, null]],
  ['plan_expired', 'PRO', [null, 'continue', null]],
  ['plan_expired', 'TEAM', [null, null, 'continue']],
  ['plan_expired', 'TRIAL', [null, null, null]],
  ['plan_upgrade', 'STARTER', ['current', 'upgrade', 'upgrade']],
  // Issue 38: a lower plan is scheduled for the renewal.
  ['plan_upgrade', 'PRO', ['downgrade', 'current', 'upgrade']],
  ['plan_upgrade', 'TEAM', ['downgrade', 'downgrade', 'current']],
  ['plan_upgrade', 'TRIAL', ['start', 'start', 'start']],
  [undefined, 'TRIAL', [null, null, null]],
  [undefined, 'STARTER', [null, null, null]],
  [undefined, 'TEAM', [null, null, null]],
]

describe('planAction', () => {
  it.each(table)('for=%s, current %s → %j', (reason, current, expected) => {
    expect(PAID_PLANS.map((card) => planAction(reason, current, card))).toEqual(expected)
  })
  it('the lower plan scheduled for the renewal is shown as scheduled, the others may still replace it', () => {
    expect(PAID_PLANS.map((card) => planAction('plan_upgrade', 'TEAM', card, 'PRO'))).toEqual(['downgrade', 'scheduled', 'current'])
  })
})

type ViewRow = [PlansFor, Plan, 'active' | 'trial_expired' | 'plan_expired' | 'processing', PlansView]

// The page is about the real subscription state; `for` only chooses among what that state allows.
const views: ViewRow[] = [
  ['trial_expired', 'TRIAL', 'active', 'trial'],
  ['plan_upgrade', 'TRIAL', 'active', 'trial'],
  ['trial_expired', 'TRIAL', 'trial_expired', 'trial_expired'],
  [undefined, 'TRIAL', 'trial_expired', 'trial_expired'],
  ['plan_upgrade', 'PRO', 'plan_expired', 'plan_expired'],
  ['plan_expired', 'PRO', 'plan_expired', 'plan_expired'],
  ['plan_expired', 'PRO', 'active', 'plan_upgrade'],
  ['trial_expired', 'STARTER', 'active', 'plan_upgrade'],
  ['plan_upgrade', 'STARTER', 'active', 'plan_upgrade'],
  // Opened directly (a bookmark, a typed address): what fits the account, never no button (issue 37).
  [undefined, 'STARTER', 'active', 'plan_upgrade'],
  [undefined, 'TEAM', 'active', 'plan_upgrade'],
  [undefined, 'TRIAL', 'active', 'trial'],
  [undefined, 'PRO', 'plan_expired', 'plan_expired'],
  [undefined, 'PRO', 'processing', 'default'],
  ['plan_upgrade', 'PRO', 'processing', 'default'],
]

describe('plansView', () => {
  it.each(views)('for=%s, %s %s → %s', (_reason, plan, status, expected) => {
    expect(plansView({ plan, show_status: status })).toBe(expected)
  })
  it('an active trial gets start buttons', () => {
    expect(PAID_PLANS.map((card) => planAction('trial', 'TRIAL', card))).toEqual(['start', 'start', 'start'])
  })
})
