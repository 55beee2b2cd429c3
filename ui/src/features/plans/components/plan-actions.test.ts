import { describe, expect, it } from 'vitest'
import { PAID_PLANS } from '@/lib/constants'
import { planAction, type Plan, type PlanAction, type PlansFor } from './plan-actions'

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
  ['plan_upgrade', 'PRO', [null, 'current', 'upgrade']],
  ['plan_upgrade', 'TEAM', [null, null, 'current']],
  ['plan_upgrade', 'TRIAL', ['start', 'start', 'start']],
  [undefined, 'TRIAL', [null, null, null]],
  [undefined, 'STARTER', [null, null, null]],
  [undefined, 'TEAM', [null, null, null]],
]

describe('planAction', () => {
  it.each(table)('for=%s, current %s → %j', (reason, current, expected) => {
    expect(PAID_PLANS.map((card) => planAction(reason, current, card))).toEqual(expected)
  })
})
