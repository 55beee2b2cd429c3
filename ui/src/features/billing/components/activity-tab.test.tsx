import { Suspense } from 'react'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import i18n from 'i18next'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { switchLanguage } from '@/test/i18n'
import nlBilling from '@/locales/nl/billing.json'
import nlCommon from '@/locales/nl/common.json'
import { fileSaver } from '../api/download-invoice'
import { ActivityTab, ActivityTabFailed, ActivityTabPending } from './activity-tab'

afterEach(async () => {
  vi.restoreAllMocks()
  act(() => dismissError())
  await i18n.changeLanguage('en')
})

const TIMELINE = '/v1/accounts/a/billing/timeline?limit=20'

const paid = {
  id: 'e3',
  at: '2026-03-05T10:30:00Z',
  type: 'payment_succeeded',
  plan: 'PRO',
  amount: 566.28,
  currency: 'EUR',
  invoice_id: 'inv-1',
}
const started = { id: 'e2', at: '2026-03-05T10:30:00Z', type: 'plan_started', plan: 'PRO', amount: null, currency: null, invoice_id: null }
const trial = { id: 'e1', at: '2026-02-19T08:00:00Z', type: 'trial_started', plan: 'TRIAL', amount: null, currency: null, invoice_id: null }

const billing = {
  invoices: [
    {
      id: 'inv-1',
      invoice_url: 'KUD-2026-000123',
      created_at: '2026-03-05T10:00:00Z',
      description: 'PRO',
      amount: 566.28,
      currency: 'EUR',
      status: 'PAID',
    },
  ],
  mandates: [],
  mandate_count: 0,
  account_billing_address: null,
}

function render() {
  return renderWithProviders(
    <Suspense fallback={<ActivityTabPending />}>
      <ActivityTab accountId="a" />
    </Suspense>,
  )
}

function entry(type: string) {
  const item = screen.getAllByRole('listitem').find((li) => li.dataset.type === type)
  if (!item) throw new Error(`no ${type} entry`)
  return within(item)
}

describe('ActivityTab', () => {
  it('shows skeletons, then the events newest first in a list, with times, plans, amounts and invoice links', async () => {
    let answer: ((r: Response) => void) | undefined
    mockApi({
      [`GET ${TIMELINE}`]: () => new Promise<Response>((resolve) => (answer = resolve)),
      'GET /v1/accounts/a/billing': () => json(200, billing),
    })
    await render()
    expect(await screen.findAllByTestId('activity-skeleton')).toHaveLength(4)
    await waitFor(() => expect(answer).toBeDefined()) // the skeletons may show before the request is made
    answer!(json(200, { events: [paid, started, trial], next_before: null }))
    const list = await screen.findByRole('list', { name: 'Billing activity' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((li) => li.dataset.type)).toEqual(['payment_succeeded', 'plan_started', 'trial_started'])
    expect(screen.queryByTestId('activity-skeleton')).toBeNull()

    const payment = entry('payment_succeeded')
    expect(payment.getByText('Payment received')).toBeInTheDocument()
    expect(payment.getByText('Pro plan')).toBeInTheDocument()
    expect(payment.getByText('€566.28')).toBeInTheDocument()
    const time = items[0].querySelector('time')
    expect(time).toHaveAttribute('datetime', '2026-03-05T10:30:00Z')
    expect(time?.textContent).toMatch(/^05\/03\/26, /)
    expect(await payment.findByRole('button', { name: 'Download invoice KUD-2026-000123' })).toHaveTextContent(
      'Invoice KUD-2026-000123',
    )
    expect(entry('plan_started').queryByRole('button')).toBeNull()
    expect(entry('trial_started').getByText('Free trial started')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
  })

  it('a credit note issued names its credit note, downloadable', async () => {
    const issued = { id: 'e4', at: '2026-03-06T09:00:00Z', type: 'credit_note_issued', plan: 'PRO', amount: 566.28, currency: 'EUR', invoice_id: 'cn-1' }
    const creditNote = {
      id: 'cn-1',
      invoice_url: 'KUD-CN-2026-000001',
      created_at: '2026-03-06T09:00:00Z',
      description: 'CREDITNOTE_PRO',
      amount: -566.28,
      currency: 'EUR',
      status: 'CREDITED',
      kind: 'credit_note',
      corrects: 'inv-1',
    }
    mockApi({
      [`GET ${TIMELINE}`]: () => json(200, { events: [issued, paid], next_before: null }),
      'GET /v1/accounts/a/billing': () => json(200, { ...billing, invoices: [creditNote, ...billing.invoices] }),
    })
    await render()
    await screen.findByRole('list', { name: 'Billing activity' })
    const credited = entry('credit_note_issued')
    expect(credited.getByText('Credit note issued')).toBeInTheDocument()
    expect(await credited.findByRole('button', { name: 'Download credit note KUD-CN-2026-000001' })).toHaveTextContent(
      'Credit note KUD-CN-2026-000001',
    )
  })

  it('shows disputes and a returned debit with their amounts, in Dutch too (issue 36)', async () => {
    const at = '2026-04-01T09:00:00Z'
    const money = { plan: 'PRO', amount: 566.28, currency: 'EUR', invoice_id: 'inv-1' }
    const events = [
      { id: 'd4', at, type: 'payment_returned', ...money },
      { id: 'd3', at, type: 'dispute_lost', ...money },
      { id: 'd2', at, type: 'dispute_won', ...money },
      { id: 'd1', at, type: 'dispute_opened', ...money },
    ]
    mockApi({
      [`GET ${TIMELINE}`]: () => json(200, { events, next_before: null }),
      'GET /v1/accounts/a/billing': () => json(200, billing),
    })
    await render()
    await screen.findByRole('list', { name: 'Billing activity' })
    expect(entry('dispute_opened').getByText('Payment disputed')).toBeInTheDocument()
    expect(entry('dispute_won').getByText('Dispute won')).toBeInTheDocument()
    expect(entry('dispute_lost').getByText('Dispute lost: payment returned to the card')).toBeInTheDocument()
    expect(entry('payment_returned').getByText('Payment returned by the bank')).toBeInTheDocument()
    expect(entry('dispute_lost').getByText(/566\.28/)).toBeInTheDocument()
    await act(async () => {
      await switchLanguage('nl')
    })
    expect(await screen.findByText(nlBilling.activity.types.dispute_opened)).toBeInTheDocument()
    expect(screen.getByText(nlBilling.activity.types.payment_returned)).toBeInTheDocument()
    await act(async () => {
      await switchLanguage('fr')
    })
    expect(await screen.findByText('Contestation perdue : paiement remboursé sur la carte')).toBeInTheDocument()
  })

  it('a renewal that failed links its due invoice as a payment request, not an invoice (issue 34)', async () => {
    const failed = { id: 'e5', at: '2027-03-05T10:30:00Z', type: 'renewal_failed', plan: 'PRO', amount: 566.28, currency: 'EUR', invoice_id: 'due-1' }
    const due = {
      id: 'due-1',
      invoice_url: '',
      created_at: '2027-03-05T10:30:00Z',
      description: 'Renewal PRO',
      amount: 566.28,
      currency: 'EUR',
      status: 'DUE_PAYMENT',
    }
    mockApi({
      [`GET ${TIMELINE}`]: () => json(200, { events: [failed], next_before: null }),
      'GET /v1/accounts/a/billing': () => json(200, { ...billing, invoices: [due, ...billing.invoices] }),
    })
    await render()
    await screen.findByRole('list', { name: 'Billing activity' })
    expect(await entry('renewal_failed').findByRole('button', { name: 'Download the payment request' })).toHaveTextContent(
      'Payment request',
    )
  })

  it('the invoice link downloads the invoice as "{number}.pdf"', async () => {
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {})
    const fetch = mockApi({
      [`GET ${TIMELINE}`]: () => json(200, { events: [paid], next_before: null }),
      'GET /v1/accounts/a/billing': () => json(200, billing),
      'POST /v1/accounts/a/invoices/inv-1/download': () => json(200, { presigned_url: 'http://127.0.0.1:9000/inv-1.pdf' }),
      'GET http://127.0.0.1:9000/inv-1.pdf': () => new Response('%PDF-1.7', { status: 200 }),
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Download invoice KUD-2026-000123' }))
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1))
    expect(save.mock.calls[0][1]).toBe('KUD-2026-000123.pdf')
    expect(calls(fetch)).toContain('POST /v1/accounts/a/invoices/inv-1/download')
  })

  it('"Load more" fetches the page before the cursor and appends it, until the last page', async () => {
    const fetch = mockApi({
      [`GET ${TIMELINE}`]: () => json(200, { events: [paid, started], next_before: 'c/1+=' }),
      [`GET ${TIMELINE}&before=c%2F1%2B%3D`]: () => json(200, { events: [trial], next_before: null }),
      'GET /v1/accounts/a/billing': () => json(200, billing),
    })
    await render()
    const more = await screen.findByRole('button', { name: 'Load more' })
    expect(screen.getAllByRole('listitem')).toHaveLength(2)
    await userEvent.click(more)
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3))
    expect(screen.getAllByRole('listitem').map((li) => li.dataset.type)).toEqual(['payment_succeeded', 'plan_started', 'trial_started'])
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
    expect(screen.getByRole('status')).toHaveTextContent('3 events shown')
    expect(calls(fetch).filter((c) => c.includes('/timeline'))).toHaveLength(2)
  })

  it('a page that fails to load says so and can be tried again; nothing shown is lost', { timeout: 15000 }, async () => {
    let fail = true
    mockApi({
      [`GET ${TIMELINE}`]: () => json(200, { events: [paid], next_before: 'c1' }),
      [`GET ${TIMELINE}&before=c1`]: () =>
        fail ? json(503, { error: { status: 503, code: 'unavailable', message: 'down' } }) : json(200, { events: [trial], next_before: null }),
      'GET /v1/accounts/a/billing': () => json(200, billing),
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }))
    // (a 503 is retried twice first)
    const alert = await screen.findByRole('alert', {}, { timeout: 8000 })
    expect(alert).toHaveTextContent('More activity could not be loaded.')
    expect(screen.getAllByRole('listitem')).toHaveLength(1)
    fail = false
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('shows an empty state without events', async () => {
    mockApi({
      [`GET ${TIMELINE}`]: () => json(200, { events: [], next_before: null }),
      'GET /v1/accounts/a/billing': () => json(200, billing),
    })
    await render()
    expect(await screen.findByText('There is no billing activity yet.')).toBeInTheDocument()
    expect(screen.queryByRole('list')).toBeNull()
  })

  it('writes amounts and labels in the account language (nl)', async () => {
    i18n.addResourceBundle('nl', 'billing', nlBilling)
    i18n.addResourceBundle('nl', 'common', nlCommon)
    await i18n.changeLanguage('nl')
    mockApi({
      [`GET ${TIMELINE}`]: () => json(200, { events: [paid], next_before: 'c1' }),
      'GET /v1/accounts/a/billing': () => json(200, billing),
    })
    await render()
    const payment = within(await screen.findByRole('list', { name: 'Facturatieactiviteit' }))
    expect(payment.getByText('Betaling ontvangen')).toBeInTheDocument()
    expect(payment.getByText('€ 566,28')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Meer laden' })).toBeInTheDocument()
  })

  it('the failed state of the first page has a retry', async () => {
    const retry = vi.fn()
    await renderWithProviders(<ActivityTabFailed retrying={false} onRetry={retry} />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Your billing activity could not be loaded.')
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(retry).toHaveBeenCalledTimes(1)
  })

  describe('membership events (issue 26)', () => {
    const team = (id: string, type: string, member_email: string, role: string | null, actor_email: string | null) => ({
      id,
      at: '2026-03-06T09:00:00Z',
      type,
      plan: null,
      amount: null,
      currency: null,
      invoice_id: null,
      member_email,
      role,
      actor_email,
    })
    const events = [
      team('t7', 'ownership_transferred', 'bob@example.com', 'owner', 'jane@example.com'),
      team('t6', 'member_left', 'carl@example.com', 'member', null),
      team('t5', 'member_removed', 'dora@example.com', 'member', 'jane@example.com'),
      team('t4', 'member_role_changed', 'bob@example.com', 'admin', 'jane@example.com'),
      team('t3', 'member_joined', 'bob@example.com', 'member', null),
      team('t2', 'invitation_revoked', 'eve@example.com', 'member', 'jane@example.com'),
      team('t1', 'member_invited', 'bob@example.com', 'member', 'jane@example.com'),
    ]

    it('each with its title, who it concerns, the role and who acted', async () => {
      mockApi({
        [`GET ${TIMELINE}`]: () => json(200, { events, next_before: null }),
        'GET /v1/accounts/a/billing': () => json(200, billing),
      })
      await render()
      await screen.findByRole('list', { name: 'Billing activity' })
      const texts = screen.getAllByRole('listitem').map((li) => li.querySelectorAll('p')[1]?.textContent)
      expect(texts).toEqual([
        'jane@example.com transferred the ownership to bob@example.com',
        'carl@example.com left the team',
        'jane@example.com removed dora@example.com from the team',
        'jane@example.com made bob@example.com an admin',
        'bob@example.com joined as a member',
        'jane@example.com revoked the invitation to eve@example.com',
        'jane@example.com invited bob@example.com as a member',
      ])
      expect(entry('member_invited').getByText('Member invited')).toBeInTheDocument()
      expect(entry('ownership_transferred').getByText('Ownership transferred')).toBeInTheDocument()
    })

    it('a member adding or removing a second factor (issue 29) says who, and which factor', async () => {
      mockApi({
        [`GET ${TIMELINE}`]: () =>
          json(200, {
            events: [
              { ...team('f4', 'second_factor_removed', 'bob@example.com', 'member', null), factor: 'passkey' },
              { ...team('f3', 'second_factor_added', 'bob@example.com', 'member', null), factor: 'totp' },
              team('f2', 'second_factor_removed', 'bob@example.com', 'member', null),
              team('f1', 'second_factor_added', 'bob@example.com', 'member', null),
            ],
            next_before: null,
          }),
        'GET /v1/accounts/a/billing': () => json(200, billing),
      })
      await render()
      await screen.findByRole('list', { name: 'Billing activity' })
      const texts = screen.getAllByRole('listitem').map((li) => li.querySelectorAll('p')[1]?.textContent)
      expect(texts).toEqual([
        'bob@example.com removed a passkey',
        'bob@example.com turned on an authenticator app',
        'bob@example.com removed a second factor',
        'bob@example.com added a second factor',
      ])
    })

    it('in nl and fr', async () => {
      mockApi({
        [`GET ${TIMELINE}`]: () => json(200, { events: [events[3], events[6]], next_before: null }),
        'GET /v1/accounts/a/billing': () => json(200, billing),
      })
      const restore = await switchLanguage('nl')
      await render()
      expect(await screen.findByText('jane@example.com maakte bob@example.com beheerder')).toBeInTheDocument()
      expect(screen.getByText('jane@example.com nodigde bob@example.com uit als lid')).toBeInTheDocument()
      await act(async () => {
        await switchLanguage('fr')
      })
      expect(await screen.findByText('jane@example.com a fait de bob@example.com un administrateur')).toBeInTheDocument()
      expect(screen.getByText('Membre invité')).toBeInTheDocument()
      await restore()
    })
  })
})

describe('ActivityTab of the team (scope team, the team page)', () => {
  it('asks for the team events only, never for billing, and says it is the team activity', async () => {
    const joined = {
      id: 't1', at: '2026-03-05T10:30:00Z', type: 'member_joined', plan: null, amount: null, currency: null, invoice_id: null,
      member_email: 'ann@example.com', role: 'member', actor_email: null,
    }
    const fetch = mockApi({ [`GET ${TIMELINE}&scope=team`]: () => json(200, { events: [joined], next_before: null }) })
    renderWithProviders(
      <Suspense fallback={<ActivityTabPending />}>
        <ActivityTab accountId="a" scope="team" />
      </Suspense>,
    )
    expect(await screen.findByText('ann@example.com joined as a member')).toBeInTheDocument()
    expect(screen.getByText('Team activity')).toBeInTheDocument()
    expect(calls(fetch).filter((c) => c.includes('/billing') && !c.includes('/timeline'))).toEqual([])
    expect(calls(fetch)).toEqual([`GET ${TIMELINE}&scope=team`])
    expect(screen.getByRole('list', { name: 'Team activity' })).toBeInTheDocument()
  })

  it('with no events says there is no team activity, not billing activity (issue 37)', async () => {
    mockApi({ [`GET ${TIMELINE}&scope=team`]: () => json(200, { events: [], next_before: null }) })
    renderWithProviders(
      <Suspense fallback={<ActivityTabPending />}>
        <ActivityTab accountId="a" scope="team" />
      </Suspense>,
    )
    expect(await screen.findByText('There is no team activity yet.')).toBeInTheDocument()
    expect(screen.queryByText(/billing/i)).toBeNull()
  })
})
