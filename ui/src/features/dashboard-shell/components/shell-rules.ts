import type { Subscription, User } from '@/lib/api/get-account'
import { displayName } from '@/lib/names'

// Pure display rules of the dashboard shell (SPEC §2 and §4).

/** Initials for the avatar. */
export function initials(user: Pick<User, 'firstname' | 'lastname' | 'email'>): string {
  const name = displayName(user)
  if (name === user.email) return user.email.slice(0, 1).toUpperCase()
  return name
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part.slice(0, 1).toUpperCase())
    .join('')
}

/** The sidebar is hidden on paths containing 'plans' or 'edit'. */
export function isSidebarHidden(pathname: string): boolean {
  return pathname.includes('plans') || pathname.includes('edit')
}

export type OverlayKind = 'trial_expired' | 'plan_expired' | 'processing'

/**
 * Which blocking overlay a dashboard page shows. Expired trial/plan: every
 * page except those whose path contains account-settings, billing or plans.
 * Processing payment: every page.
 */
export function overlayFor(status: Subscription['show_status'], pathname: string): OverlayKind | null {
  if (status === 'processing') return 'processing'
  if (status === 'trial_expired' || status === 'plan_expired') {
    const exempt = ['account-settings', 'billing', 'plans'].some((part) => pathname.includes(part))
    return exempt ? null : status
  }
  return null
}

/** Plan name capitalised for the badge: TRIAL → Trial. */
export function planLabel(plan: string): string {
  const lower = plan.toLowerCase()
  return lower.charAt(0).toUpperCase() + lower.slice(1)
}
