import {
  CreditCard,
  Film,
  Lightbulb,
  LayoutGrid,
  MessageSquareQuote,
  Plug,
  Presentation,
  Settings,
  SlidersHorizontal,
  Users,
  type LucideIcon,
} from 'lucide-react'
import { atLeast, type Role } from '@/lib/roles'

export interface NavItem {
  key: string
  to:
    | '/dashboard/$accountId/testimonials'
    | '/dashboard/$accountId/spaces'
    | '/dashboard/$accountId/showcases'
    | '/dashboard/$accountId/reels'
    | '/dashboard/$accountId/team'
    | '/dashboard/$accountId/integrations'
    | '/dashboard/$accountId/account-settings/plan'
    | '/dashboard/$accountId/billing/payment-details'
    | '/dashboard/$accountId/preferences'
    | '/dashboard/$accountId/request-feature'
  icon: LucideIcon
  badge?: number
  /** The least role that may open it (issue 26); everyone when absent. */
  role?: Role
}

/** Navigation: the sidebar shows the first 6, the user menu the last 4. */
export const NAV_ITEMS: readonly NavItem[] = [
  // The testimonial count badge is a fixed 4 (SPEC §2).
  { key: 'testimonials', to: '/dashboard/$accountId/testimonials', icon: MessageSquareQuote, badge: 4 },
  { key: 'spaces', to: '/dashboard/$accountId/spaces', icon: LayoutGrid },
  { key: 'showcases', to: '/dashboard/$accountId/showcases', icon: Presentation },
  { key: 'reels', to: '/dashboard/$accountId/reels', icon: Film },
  { key: 'team', to: '/dashboard/$accountId/team', icon: Users },
  { key: 'integrations', to: '/dashboard/$accountId/integrations', icon: Plug },
  { key: 'account_settings', to: '/dashboard/$accountId/account-settings/plan', icon: Settings },
  // Billing is the owner's: others are refused by the api and do not see it.
  { key: 'billing', to: '/dashboard/$accountId/billing/payment-details', icon: CreditCard, role: 'owner' },
  { key: 'preferences', to: '/dashboard/$accountId/preferences', icon: SlidersHorizontal },
  { key: 'request_feature', to: '/dashboard/$accountId/request-feature', icon: Lightbulb },
]

export const SIDEBAR_ITEMS = NAV_ITEMS.slice(0, 6)
export const USER_MENU_ITEMS = NAV_ITEMS.slice(6)

/** The items a user of `role` may open. */
export function itemsFor(items: readonly NavItem[], role: Role): NavItem[] {
  return items.filter((item) => !item.role || atLeast(role, item.role))
}
