import * as v from 'valibot'
import { infiniteQueryOptions } from '@tanstack/react-query'
import { apiRequest } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import { ROLES } from '@/lib/roles'

// GET /v1/accounts/{id}/billing/timeline?limit=&before= → a page of billing
// events, newest first, and the cursor of the next page (null on the last).
// The Activity tab loads pages of TIMELINE_PAGE_SIZE with "load more".

export const BILLING_EVENT_TYPES = [
  'trial_started',
  'trial_reminder_sent',
  'trial_expired',
  'checkout_opened',
  'checkout_cancelled',
  'checkout_expired',
  'payment_succeeded',
  'payment_failed',
  'plan_started',
  'plan_upgraded',
  'auto_renewal_stopped',
  'auto_renewal_restarted',
  'renewal_reminder_sent',
  'renewal_succeeded',
  'renewal_failed',
  'payment_retry_scheduled',
  'plan_expired',
  'payment_method_added',
  'payment_method_removed',
  'refund',
  // The team's part (issue 26): who it concerns (member_email), the role, who acted (actor_email).
  'member_invited',
  'invitation_revoked',
  'member_joined',
  'member_role_changed',
  'member_removed',
  'member_left',
  'ownership_transferred',
  // The account's deletion (issue 28): scheduled and cancelled by its owner (actor_email), then done.
  'deletion_scheduled',
  'deletion_cancelled',
  'deletion_completed',
  // The credit note of a refunded invoice (issue 30).
  'credit_note_issued',
  // Two-factor sign-in (issue 29): a member's second factor, the owner's policy.
  'second_factor_added',
  'second_factor_removed',
  'mfa_policy_changed',
  // A VAT id's check (issue 30).
  'vat_id_checked',
  // Money the provider took back (issue 36): a dispute (chargeback) opened, won or lost, a debit returned by the bank.
  'dispute_opened',
  'dispute_won',
  'dispute_lost',
  'payment_returned',
  // A refund that failed at the provider after it was made: the customer is owed it still.
  'refund_failed',
] as const
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number]

export const TIMELINE_PAGE_SIZE = 20

const eventSchema = v.object({
  id: v.string(),
  at: v.string(),
  type: v.picklist(BILLING_EVENT_TYPES),
  plan: v.optional(v.nullable(v.string()), null),
  /** Major units, VAT included; payment events only. */
  amount: v.optional(v.nullable(v.number()), null),
  currency: v.optional(v.nullable(v.string()), null),
  invoice_id: v.optional(v.nullable(v.string()), null),
  /** Membership events: who they concern. */
  member_email: v.optional(v.nullable(v.string()), null),
  /** Membership events: the role given or held. */
  role: v.optional(v.nullable(v.picklist(ROLES)), null),
  /** Membership events: who acted (null when the member acted, or for a join). */
  actor_email: v.optional(v.nullable(v.string()), null),
  /** Second-factor events: an authenticator app (totp) or a passkey. */
  factor: v.optional(v.nullable(v.picklist(['totp', 'passkey'])), null),
})

const pageSchema = v.object({
  events: v.array(eventSchema),
  next_before: v.optional(v.nullable(v.string()), null),
})

export type BillingEvent = v.InferOutput<typeof eventSchema>
export type TimelinePage = v.InferOutput<typeof pageSchema>

/** 'team': only the membership events (what an admin may see; the team page shows them). */
export type TimelineScope = 'all' | 'team'

export function getBillingTimeline(
  accountId: string,
  before: string | null,
  signal?: AbortSignal,
  scope: TimelineScope = 'all',
): Promise<TimelinePage> {
  const query = new URLSearchParams({ limit: String(TIMELINE_PAGE_SIZE) })
  if (before) query.set('before', before)
  if (scope === 'team') query.set('scope', 'team')
  return apiRequest(`/v1/accounts/${encodeURIComponent(accountId)}/billing/timeline?${query}`, {
    auth: true,
    signal,
    schema: pageSchema,
  })
}

export function billingTimelineQueryOptions(accountId: string, scope: TimelineScope = 'all') {
  return infiniteQueryOptions({
    queryKey: scope === 'team' ? [...queryKeys.billingTimeline(accountId), 'team'] : queryKeys.billingTimeline(accountId),
    queryFn: ({ pageParam, signal }) => getBillingTimeline(accountId, pageParam, signal, scope),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_before ?? undefined,
  })
}
