import { describe, expect, it } from 'vitest'
import { displayName } from '@/lib/names'
import { initials, isSidebarHidden, overlayFor, planLabel } from './shell-rules'

describe('displayName', () => {
  const user = { firstname: 'Jane', lastname: 'Doe', email: 'jane@example.com' }
  it('shows first and last name', () => expect(displayName(user)).toBe('Jane Doe'))
  it('shows the e-mail when the first name is Unknown', () =>
    expect(displayName({ ...user, firstname: 'Unknown' })).toBe('jane@example.com'))
  it('shows the e-mail when the last name is Unknown', () =>
    expect(displayName({ ...user, lastname: 'Unknown' })).toBe('jane@example.com'))
  it('shows the e-mail without any name', () =>
    expect(displayName({ ...user, firstname: '', lastname: '' })).toBe('jane@example.com'))
  it('makes initials', () => {
    expect(initials(user)).toBe('JD')
    expect(initials({ ...user, lastname: 'Unknown' })).toBe('J')
  })
})

describe('isSidebarHidden', () => {
  it.each([
    ['/dashboard/a/plans', true],
    ['/dashboard/a/spaces/edit/s1', true],
    ['/dashboard/a/testimonials', false],
    ['/dashboard/a/account-settings/plan', false],
    ['/dashboard/a/billing/payment-details', false],
  ])('%s → %s', (path, hidden) => expect(isSidebarHidden(path)).toBe(hidden))
})

describe('overlayFor', () => {
  it('shows nothing while active', () => expect(overlayFor('active', '/dashboard/a/testimonials')).toBeNull())
  it.each(['trial_expired', 'plan_expired'] as const)('%s blocks ordinary pages', (status) => {
    expect(overlayFor(status, '/dashboard/a/testimonials')).toBe(status)
    expect(overlayFor(status, '/dashboard/a/preferences')).toBe(status)
  })
  it.each(['trial_expired', 'plan_expired'] as const)('%s leaves account-settings, billing and plans usable', (status) => {
    expect(overlayFor(status, '/dashboard/a/account-settings/plan')).toBeNull()
    expect(overlayFor(status, '/dashboard/a/billing/invoices')).toBeNull()
    expect(overlayFor(status, '/dashboard/a/plans')).toBeNull()
  })
  it('processing shows everywhere', () => {
    expect(overlayFor('processing', '/dashboard/a/testimonials')).toBe('processing')
    expect(overlayFor('processing', '/dashboard/a/plans')).toBe('processing')
  })
})

describe('planLabel', () => {
  it.each([
    ['TRIAL', 'Trial'],
    ['STARTER', 'Starter'],
    ['PRO', 'Pro'],
    ['TEAM', 'Team'],
  ])('%s → %s', (plan, label) => expect(planLabel(plan)).toBe(label))
})
