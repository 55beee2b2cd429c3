import { vi } from 'vitest'

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>

export const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status })

/**
 * Stubs fetch with handlers keyed "METHOD /path"; anything else answers 404.
 * Returns the mock, whose calls read as [url, init].
 */
export function mockApi(routes: Record<string, Handler>) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const handler = routes[`${init?.method ?? 'GET'} ${url}`]
    if (!handler) return json(404, { error: { status: 404, code: 'not_found', message: 'Not found' } })
    return handler(init)
  })
  vi.stubGlobal('fetch', fetch)
  return fetch
}

/** "METHOD url" of every call made so far. */
export function calls(fetch: ReturnType<typeof mockApi>): string[] {
  return fetch.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url}`)
}

export function accountBody(subscription: Record<string, unknown> = {}, name = 'Acme') {
  return {
    account: {
      id: 'a',
      name,
      subscription: {
        plan: 'TRIAL',
        show_status: 'active',
        show_onboarding: false,
        trials_left: 3,
        plan_renewal_at: null,
        trial_expires_at: '2026-03-05T10:00:00Z',
        start_next_period: false,
        payment_retry_at: null,
        failed_payment: null,
        ...subscription,
      },
    },
    user: { firstname: 'Jane', lastname: 'Doe', email: 'jane@example.com' },
  }
}

/** An account read (accountBody) as a user of `role` sees it (issue 26). */
export function withRole<T extends { account: object }>(body: T, role: 'owner' | 'admin' | 'member'): T {
  return { ...body, account: { ...body.account, role } }
}

/** The origin checkouts are accepted from in tests (the sandbox's). */
export const CHECKOUT_ORIGIN = 'http://127.0.0.1:8080'

/** A GET /v1/pricing answer: Starter 180, Pro 468, Team 1188 EUR a year, 21 % VAT. */
export const pricingBody = {
  pricing_table: { starter_pricing: 180, pro_pricing: 468, team_pricing: 1188 },
  currency: 'EUR',
  vat_rate: 21,
  reverse_charge: false,
  vat_treatment: 'standard',
  checkout_origin: CHECKOUT_ORIGIN,
}

/** A subscription in dunning: PRO, its €217.80 renewal on 2027-03-01 failed, retried on 2027-03-05. */
export const dunningSubscription = {
  plan: 'PRO',
  show_status: 'active',
  plan_renewal_at: '2027-03-01T12:00:00Z',
  start_next_period: true,
  payment_retry_at: '2027-03-05T12:00:00Z',
  failed_payment: { invoice_id: '0b6f4c1e-6d0a-4a53-9b44-4f1e6a0c2d11', amount: 217.8, currency: 'EUR' },
}
