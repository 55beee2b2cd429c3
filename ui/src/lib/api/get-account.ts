import * as v from 'valibot'
import { queryOptions } from '@tanstack/react-query'
import { apiRequest, isApiError } from '@/lib/api-client'
import { DUNNING_POLL_MS, LOGO_PUBLIC_PREFIX, LOGO_TEMPORARY_PREFIX, PAID_PLANS, PLANS, POLL_MS, SHOW_STATUSES } from '@/lib/constants'
import { queryKeys } from '@/lib/query-keys'
import { ROLES } from '@/lib/roles'

// GET /v1/accounts/{id}: the account, its subscription and the signed-in user.
// Shared by the dashboard shell and every dashboard feature.

const nullableDate = v.optional(v.nullable(v.string()), null)

/** The renewal payment being retried (dunning): amount in major units with VAT. */
export const failedPaymentSchema = v.object({
  invoice_id: v.string(),
  amount: v.number(),
  currency: v.string(),
})

export const subscriptionSchema = v.object({
  plan: v.picklist(PLANS),
  show_status: v.picklist(SHOW_STATUSES),
  show_onboarding: v.optional(v.boolean(), false),
  trials_left: v.optional(v.number(), 0),
  plan_renewal_at: nullableDate,
  trial_expires_at: nullableDate,
  start_next_period: v.optional(v.boolean(), false),
  /** The next automatic attempt at a failed renewal charge; null when none is pending (and from an older api). */
  payment_retry_at: nullableDate,
  /** The renewal payment being retried; null when none (and from an older api). */
  failed_payment: v.optional(v.nullable(failedPaymentSchema), null),
  /** The lower plan the renewal starts (issue 38); null when none (and from an older api). */
  scheduled_plan: v.optional(v.nullable(v.picklist(PAID_PLANS)), null),
  /** When the scheduled change (a lower plan, fewer seats) takes effect: the renewal date. */
  scheduled_at: nullableDate,
  /** The seats a Team plan bought beyond its 10 (issue 38). */
  extra_seats: v.optional(v.number(), 0),
  /** The extra seats kept from scheduled_at (fewer seats at the renewal); null when unchanged. */
  scheduled_extra_seats: v.optional(v.nullable(v.number()), null),
})

export const accountResponseSchema = v.object({
  account: v.object({
    id: v.string(),
    name: v.optional(v.string(), ''),
    img_url: v.optional(v.nullable(v.string()), null),
    /** Absolute address of the public logo image, '' unless img_url is public. */
    logo_url: v.optional(v.nullable(v.string()), null),
    /** Why the last upload was refused (LOGO_ERRORS), or ''. */
    logo_error: v.optional(v.nullable(v.string()), null),
    /** The signed-in user's role in this account (issue 26); an api from before teams had only owners. */
    role: v.optional(v.picklist(ROLES), 'owner'),
    testimonial_count: v.optional(v.number(), 0),
    recording_spaces_count: v.optional(v.number(), 0),
    subscription: subscriptionSchema,
    /** When the account is to be deleted (issue 28); null unless its owner scheduled it. */
    deletion_at: nullableDate,
    /** Scheduling the deletion turned the auto-renewal off (issue 35): the cancel offers it back. */
    deletion_stopped_renewal: v.optional(v.boolean(), false),
    /** The owner's policy (issue 29): every member signs in with a second factor. */
    require_mfa: v.optional(v.boolean(), false),
  }),
  user: v.object({
    firstname: v.optional(v.string(), ''),
    lastname: v.optional(v.string(), ''),
    email: v.string(),
    activated: v.optional(v.boolean(), true),
    preferred_language: v.optional(v.string(), 'en'),
    opt_in_notifications: v.optional(v.boolean(), false),
    opt_in_marketing: v.optional(v.boolean(), false),
    opt_in_terms_of_use: v.optional(v.boolean(), false),
    social_login: v.optional(v.boolean(), false),
    /** When the user's own deletion erases them (issue 28); null unless they scheduled it. */
    deletion_at: nullableDate,
    /** The account they own that keeps their erasure waiting (issue 35); null when nothing does. */
    deletion_blocked_by: v.optional(v.nullable(v.string()), null),
  }),
})

export type AccountData = v.InferOutput<typeof accountResponseSchema>
export type Subscription = AccountData['account']['subscription']
export type User = AccountData['user']
export type FailedPayment = v.InferOutput<typeof failedPaymentSchema>

export function getAccount(accountId: string, signal?: AbortSignal): Promise<AccountData> {
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}`, {
    auth: true,
    signal,
    schema: accountResponseSchema,
  })
}

export function accountQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: queryKeys.account(accountId),
    queryFn: ({ signal }) => getAccount(accountId, signal),
    // While a payment or the logo is processing the account is re-fetched every 2.5 s (SPEC §4);
    // while a failed renewal is being retried, every 10 s.
    refetchInterval: (query) => {
      const account = query.state.data?.account
      const processing =
        account?.subscription.show_status === 'processing' || logoState(account?.img_url) === 'temporary'
      if (processing) return POLL_MS
      return account?.subscription.payment_retry_at ? DUNNING_POLL_MS : false
    },
  })
}

export type LogoState = 'placeholder' | 'temporary' | 'public'

/**
 * What an img_url says about the logo (SPEC §3, §4): 'tmp/…' is being
 * processed, 'public/…' is served; '', BLANK, 'placeholder:…' and anything
 * else mean there is none.
 */
export function logoState(imgUrl: string | null | undefined): LogoState {
  if (imgUrl?.startsWith(LOGO_TEMPORARY_PREFIX)) return 'temporary'
  if (imgUrl?.startsWith(LOGO_PUBLIC_PREFIX)) return 'public'
  return 'placeholder'
}

/** A 403 with code user_not_activated: the user must confirm their e-mail first. */
export function isUserNotActivated(error: unknown): boolean {
  return isApiError(error) && error.status === 403 && error.code === 'user_not_activated'
}
