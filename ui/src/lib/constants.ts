// Business constants of SPEC §3 and §9.

export const COUNTRIES = [
  'nl_BE', 'fr_BE', 'nl_NL', 'fr_FR', 'en_GB', 'de_DE', 'de_AT', 'de_CH', 'es_ES', 'ca_ES',
  'pt_PT', 'it_IT', 'nb_NO', 'sv_SE', 'fi_FI', 'da_DK', 'is_IS', 'hu_HU', 'pl_PL', 'lv_LV', 'lt_LT',
] as const
export type Country = (typeof COUNTRIES)[number]

export const FEATURE_AREAS = [
  'PRODUCT_TESTIMONIALS', 'PRODUCT_SPACES', 'PRODUCT_SHOWCASES', 'PRODUCT_REELS',
  'PRODUCT_TEAM', 'PRODUCT_INTEGRATIONS', 'SUPPORT', 'OTHER',
] as const

export const FEATURE_PROFILES = [
  'BUSINESS_OWNER', 'MARKETING_SPECIALIST', 'DESIGNER', 'DEVELOPER', 'OTHER',
] as const

export const PLANS = ['TRIAL', 'STARTER', 'PRO', 'TEAM'] as const
/** The plans one pays for, in upgrade order (SPEC §4): later is higher. */
export const PAID_PLANS = ['STARTER', 'PRO', 'TEAM'] as const
export type PaidPlan = (typeof PAID_PLANS)[number]
/** How many users each plan allows (SPEC §9; a trial allows Team's). Members and pending invitations take seats. */
export const PLAN_SEATS: Record<(typeof PLANS)[number], number> = { TRIAL: 10, STARTER: 1, PRO: 2, TEAM: 10 }
export const SHOW_STATUSES = ['active', 'trial_expired', 'plan_expired', 'processing'] as const
export const PLANS_FOR = ['trial_expired', 'plan_expired', 'plan_upgrade'] as const

export const ERROR_POPUP_MS = 3500
export const ACTIVATION_REDIRECT_MS = 2000
export const RESEND_SENT_MS = 3000
/** Payment-processing poll and logo revalidation (SPEC §9). */
export const POLL_MS = 2500
/**
 * While a failed renewal is being retried (dunning) the account is re-read
 * this often, so that a payment made meanwhile (a card added, a payment
 * authenticated on the provider's page) takes the banner away soon.
 */
export const DUNNING_POLL_MS = 10000

/** Logo uploads: png or jpeg, at most 10 MB (SPEC §5, §9). */
export const LOGO_MAX_BYTES = 10 * 1024 * 1024
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number]
/** img_url prefixes (SPEC §3): a logo being processed, and one that is served. */
export const LOGO_TEMPORARY_PREFIX = 'tmp/'
export const LOGO_PUBLIC_PREFIX = 'public/'

/** VAT placeholder: the last two characters of the country value + 12345678 (SPEC §5). */
export function vatPlaceholder(country: string): string {
  return `${country.slice(-2)}12345678`
}
