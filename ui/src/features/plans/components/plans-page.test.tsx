import { Suspense } from 'react'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorPopup } from '@/components/error-popup'
import { browserLocation } from '@/lib/checkout'
import { dismissError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, dunningSubscription, json, mockApi, withRole, CHECKOUT_ORIGIN, pricingBody } from '@/test/mock-api'
import type { PlansFor } from './plan-actions'
import { PlansPage, PlansPagePending } from './plans-page'

afterEach(() => {
  act(() => dismissError())
})


// `reason` is the `for` the link carried: the page follows the subscription all the same.
function render(_reason: PlansFor) {
  return renderWithProviders(
    <>
      {/* As the route renders it: its pending component while account and prices load. */}
      <Suspense fallback={<PlansPagePending />}>
        <PlansPage accountId="a" />
      </Suspense>
      <ErrorPopup />
    </>,
    '/dashboard/a/plans',
  )
}

describe('PlansPage', () => {
  it('shows a skeleton, then per card the monthly, yearly and VAT texts and the features', async () => {
    let answer: ((r: Response) => void) | undefined
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => new Promise<Response>((resolve) => (answer = resolve)),
    })
    await render(undefined)
    const pro = await screen.findByRole('region', { name: 'Pro' })
    expect(within(pro).getByTestId('price-skeleton')).toBeInTheDocument()
    // The skeleton is also the route's pending screen, drawn before the
    // prices are asked for: answer the request once it is made.
    await waitFor(() => expect(answer).toBeDefined())
    expect(within(screen.getByRole('region', { name: 'Pro' })).getByTestId('price-skeleton')).toBeInTheDocument()
    answer!(json(200, pricingBody))
    await screen.findByRole('heading', { level: 1 })
    const loaded = screen.getByRole('region', { name: 'Pro' })
    expect(within(loaded).getByTestId('monthly-price')).toHaveTextContent('€39')
    expect(within(loaded).getByText('€468 per year, billed annually')).toBeInTheDocument()
    expect(within(loaded).getByText('VAT may apply (21%)')).toBeInTheDocument()
    expect(within(loaded).getByText('Most popular')).toBeInTheDocument()
    expect(within(loaded).getByText('Up to 375 testimonials')).toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Team' })).getByTestId('monthly-price')).toHaveTextContent('€99')
    expect(within(screen.getByRole('region', { name: 'Starter' })).getByText('Embed and share')).toBeInTheDocument()
  })

  it('opened directly during a trial: every card starts its plan (issue 37)', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
    })
    await render(undefined)
    await screen.findByRole('heading', { level: 1, name: 'Choose your plan' })
    for (const plan of ['Starter', 'Pro', 'Team']) {
      expect(within(screen.getByRole('region', { name: plan })).getByRole('button', { name: `Start with ${plan}` })).toBeEnabled()
    }
  })

  it('opened directly on a paid plan: the current plan marked, higher plans offered as upgrade (issue 37)', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody({ plan: 'PRO', plan_renewal_at: '2027-03-01T12:00:00Z', start_next_period: true })),
      'GET /v1/pricing/a': () => json(200, pricingBody),
    })
    await render(undefined)
    await screen.findByRole('heading', { level: 1, name: 'Upgrade your plan' })
    const pro = screen.getByRole('region', { name: 'Pro' })
    expect(within(pro).getByTestId('current-plan')).toBeInTheDocument()
    expect(within(pro).getByRole('button', { name: 'Your current plan' })).toBeDisabled()
    expect(within(screen.getByRole('region', { name: 'Team' })).getByRole('button', { name: 'Upgrade to Team' })).toBeEnabled()
    // Issue 38: a lower plan is offered for the renewal.
    expect(within(screen.getByRole('region', { name: 'Starter' })).getByRole('button', { name: 'Switch to Starter at the renewal' })).toBeEnabled()
  })

  it('opened directly after the trial expired: every card starts its plan (issue 37)', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody({ show_status: 'trial_expired' })),
      'GET /v1/pricing/a': () => json(200, pricingBody),
    })
    await render(undefined)
    await screen.findByRole('heading', { level: 1 })
    expect(screen.getAllByRole('button', { name: /^Start with/ })).toHaveLength(3)
  })

  it('a reverse-charged account sees 0% VAT and the reverse-charge note instead of the VAT rate', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, { ...pricingBody, vat_rate: 0, reverse_charge: true }),
    })
    await render(undefined)
    await screen.findByRole('heading', { level: 1 })
    for (const plan of ['Starter', 'Pro', 'Team']) {
      const card = await screen.findByRole('region', { name: plan })
      expect(within(card).getByTestId('vat')).toHaveTextContent(
        '0% VAT: reverse charged (art. 196 VAT Directive), as your VAT id is verified',
      )
      expect(within(card).queryByText(/VAT may apply/)).toBeNull()
    }
  })

  it('a business outside the EU sees 0% VAT and the art. 44 note instead of the VAT rate (issue 34)', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, { ...pricingBody, vat_rate: 0, vat_treatment: 'outside_eu_business' }),
    })
    await render(undefined)
    await screen.findByRole('heading', { level: 1 })
    const card = await screen.findByRole('region', { name: 'Pro' })
    expect(within(card).getByTestId('vat')).toHaveTextContent(
      '0% VAT: outside the scope of EU VAT (art. 44 VAT Directive), as you gave a tax id outside the EU',
    )
    expect(within(card).queryByText(/VAT may apply/)).toBeNull()
  })

  it('plan_upgrade: disabled current plan, upgrade buttons for higher plans (PATCH → checkout)', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody({ plan: 'PRO' })),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'PATCH /v1/accounts/a/subscription': () => json(201, { checkout_href: `${CHECKOUT_ORIGIN}/sandbox/checkout/7` }),
    })
    await render('plan_upgrade')
    await screen.findByRole('heading', { level: 1 })
    const pro = await screen.findByRole('region', { name: 'Pro' })
    expect(within(pro).getByRole('button', { name: 'Your current plan' })).toBeDisabled()
    expect(within(screen.getByRole('region', { name: 'Starter' })).getByRole('button', { name: 'Switch to Starter at the renewal' })).toBeEnabled()
    await userEvent.click(within(screen.getByRole('region', { name: 'Team' })).getByRole('button', { name: 'Upgrade to Team' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${CHECKOUT_ORIGIN}/sandbox/checkout/7`))
    const patch = fetch.mock.calls.find(([url, init]) => url === '/v1/accounts/a/subscription' && init?.method === 'PATCH')
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ plan: 'TEAM' })
  })

  it('plan_upgrade during dunning: upgrade buttons disabled, with why (the api answers 409 meanwhile)', async () => {
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody(dunningSubscription)),
      'GET /v1/pricing/a': () => json(200, pricingBody),
    })
    await render('plan_upgrade')
    await screen.findByRole('heading', { level: 1 })
    const why = screen.getByText('You can upgrade your plan again once your renewal payment has gone through.')
    const upgrade = within(await screen.findByRole('region', { name: 'Team' })).getByRole('button', { name: 'Upgrade to Team' })
    expect(upgrade).toBeDisabled()
    expect(upgrade).toHaveAccessibleDescription(why.textContent ?? '')
    await userEvent.click(upgrade)
    expect(calls(fetch)).not.toContain('PATCH /v1/accounts/a/subscription')
  })

  it('plan_expired: only the current plan continues, by paying the latest unpaid invoice', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody({ plan: 'STARTER', show_status: 'plan_expired' })),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/accounts/a/invoices/latest-unpaid': () => json(200, { invoice_id: 'inv 1' }),
      'POST /v1/accounts/a/invoices/inv%201/payment': () => json(201, { checkout_href: `${CHECKOUT_ORIGIN}/sandbox/checkout/9` }),
    })
    await render('plan_expired')
    await screen.findByRole('heading', { level: 1 })
    await screen.findByRole('region', { name: 'Starter' })
    expect(screen.getAllByRole('button')).toHaveLength(1)
    await userEvent.click(screen.getByRole('button', { name: 'Continue with Starter' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${CHECKOUT_ORIGIN}/sandbox/checkout/9`))
    expect(calls(fetch)).toContain('POST /v1/accounts/a/invoices/inv%201/payment')
  })

  it('a checkout link from a foreign origin is not followed and shows the 500 popup', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'POST /v1/accounts/a/subscription': () => json(201, { checkout_href: 'https://evil.example/pay' }),
    })
    await render('trial_expired')
    await screen.findByRole('heading', { level: 1 })
    const button = await screen.findByRole('button', { name: 'Start with Starter' })
    await userEvent.click(button)
    expect(await screen.findByText('The server encountered an error.')).toBeInTheDocument()
    expect(assign).not.toHaveBeenCalled()
    expect(button).toBeEnabled()
  })

  it('422 account_billing_address opens the billing modal (no popup); Cancel closes it', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'POST /v1/accounts/a/subscription': () =>
        json(422, {
          error: { status: 422, code: 'unprocessable_entity', message: 'x', fields: { account_billing_address: 'required' } },
        }),
    })
    await render('trial_expired')
    await screen.findByRole('heading', { level: 1 })
    await userEvent.click(await screen.findByRole('button', { name: 'Start with Pro' }))
    const dialog = await screen.findByRole('dialog', { name: 'Your billing details' })
    expect(within(dialog).getByLabelText('Organization name')).toHaveValue('Acme')
    expect(within(dialog).getByRole('button', { name: 'Save and continue to payment' })).toBeInTheDocument()
    expect(screen.queryByText('Whoops.. There was an error.')).toBeNull()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    // Focus returns to the button that opened it, though it was busy meanwhile (issue 37).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start with Pro' })).toHaveFocus())
  })

  it('saving the billing modal patches the address, then starts the plan again', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    let posts = 0
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'POST /v1/accounts/a/subscription': () =>
        ++posts === 1
          ? json(422, { error: { status: 422, code: 'unprocessable_entity', message: 'x', fields: { account_billing_address: 'required' } } })
          : json(201, { checkout_href: `${CHECKOUT_ORIGIN}/sandbox/checkout/3` }),
      'PATCH /v1/accounts/a/billing-address': () => json(200, {}),
    })
    await render('trial_expired')
    await screen.findByRole('heading', { level: 1 })
    await userEvent.click(await screen.findByRole('button', { name: 'Start with Team' }))
    const dialog = await screen.findByRole('dialog', { name: 'Your billing details' })
    await userEvent.type(within(dialog).getByLabelText('Street and number'), 'Main 1')
    await userEvent.type(within(dialog).getByLabelText('Postal code'), '1000')
    await userEvent.type(within(dialog).getByLabelText('City'), 'Brussels')
    await userEvent.type(within(dialog).getByLabelText('Region'), 'Brussels')
    // The country select is a Radix Select: open it and pick with the keyboard.
    within(dialog).getByRole('combobox', { name: 'Country' }).focus()
    await userEvent.keyboard('{Enter}')
    await userEvent.click(await screen.findByRole('option', { name: 'Belgium (Dutch)' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and continue to payment' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${CHECKOUT_ORIGIN}/sandbox/checkout/3`))
    const sequence = calls(fetch).filter((c) => !c.startsWith('GET'))
    expect(sequence).toEqual([
      'POST /v1/accounts/a/subscription',
      'PATCH /v1/accounts/a/billing-address',
      'POST /v1/accounts/a/subscription',
    ])
    const subscriptionPosts = fetch.mock.calls.filter(([url, init]) => url === '/v1/accounts/a/subscription' && init?.method === 'POST')
    expect(subscriptionPosts.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([{ plan: 'TEAM' }, { plan: 'TEAM' }])
  })
})

describe('PlansPage by role (issue 26)', () => {
  it.each(['admin', 'member'] as const)('a %s sees the plans without buttons and is told to ask the owner', async (role) => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, withRole(accountBody({ plan: 'PRO' }), role)),
      'GET /v1/pricing/a': () => json(200, pricingBody),
    })
    await render('plan_upgrade')
    expect(await screen.findByTestId('plans-ask-owner')).toHaveTextContent('Only the account owner can change the plan.')
    expect(screen.getByRole('region', { name: 'Team' })).toBeInTheDocument()
    expect(screen.queryAllByRole('button')).toHaveLength(0)
  })
})

describe('PlansPage: plans smaller than the team (issue 26)', () => {
  const members = (used: number) => ({ members: [], seats: { used, limit: 10 } })

  it('says on each too-small card how many members to remove, before the click, and disables its button', async () => {
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/accounts/a/members': () => json(200, members(3)),
    })
    await render('trial_expired')
    await screen.findByRole('heading', { level: 1 })
    const starter = screen.getByRole('region', { name: 'Starter' })
    expect(await within(starter).findByTestId('plan-too-small')).toHaveTextContent(
      'Remove 2 members first: your team uses 3 seats (members and pending invitations) and the Starter plan has room for 1.',
    )
    const startStarter = within(starter).getByRole('button', { name: 'Start with Starter' })
    expect(startStarter).toBeDisabled()
    expect(startStarter).toHaveAccessibleDescription(/Remove 2 members first/)
    const pro = screen.getByRole('region', { name: 'Pro' })
    expect(within(pro).getByTestId('plan-too-small')).toHaveTextContent('Remove 1 member first: your team uses 3 seats (members and pending invitations) and the Pro plan has room for 2.')
    expect(within(pro).getByRole('link', { name: 'Go to the team' })).toHaveAttribute('href', '/dashboard/a/team')
    const team = screen.getByRole('region', { name: 'Team' })
    expect(within(team).queryByTestId('plan-too-small')).toBeNull()
    expect(within(team).getByRole('button', { name: 'Start with Team' })).toBeEnabled()
    expect(calls(fetch)).not.toContain('POST /v1/accounts/a/subscription')
  })

  it('a 409 seat_limit all the same (seats unknown before) is said on that card, not in a popup', async () => {
    let used = 0
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/accounts/a/members': () => (used ? json(200, members(used)) : json(503, {})),
      'POST /v1/accounts/a/subscription': () => {
        used = 2
        return json(409, { error: { status: 409, code: 'seat_limit', message: 'remove 1 member first' } })
      },
    })
    await render('trial_expired')
    await screen.findByRole('heading', { level: 1 })
    const starter = screen.getByRole('region', { name: 'Starter' })
    await userEvent.click(within(starter).getByRole('button', { name: 'Start with Starter' }))
    expect(await within(starter).findByText(/Remove 1 member first: your team uses 2 seats .* the Starter plan has room for 1\./)).toBeInTheDocument()
    expect(screen.queryByText('Whoops.. There was an error.')).toBeNull()
    expect(within(starter).getByRole('button', { name: 'Start with Starter' })).toBeDisabled()
  })

  it('a member is not asked for the seats (billing is the owner’s)', async () => {
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, withRole(accountBody(), 'member')),
      'GET /v1/pricing/a': () => json(200, pricingBody),
    })
    await render('trial_expired')
    await screen.findByTestId('plans-ask-owner')
    expect(calls(fetch)).not.toContain('GET /v1/accounts/a/members')
  })

  it('a lower plan is scheduled for the renewal, shown with its date, and cancelled after a confirmation (issue 38)', async () => {
    let scheduled = false
    const fetch = mockApi({
      'GET /v1/accounts/a': () =>
        json(200, accountBody({ plan: 'TEAM', plan_renewal_at: '2027-03-12T10:00:00Z', start_next_period: true,
          ...(scheduled ? { scheduled_plan: 'PRO', scheduled_at: '2027-03-12T10:00:00Z' } : {}) })),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/accounts/a/members': () => json(200, { members: [], seats: { used: 2, limit: 10 } }),
      'PATCH /v1/accounts/a/subscription': () => {
        scheduled = true
        return json(200, { scheduled_plan: 'PRO', scheduled_at: '2027-03-12T10:00:00Z' })
      },
      'DELETE /v1/accounts/a/subscription/scheduled-change': () => {
        scheduled = false
        return json(200, { scheduled_plan: null, scheduled_at: null })
      },
    })
    await render('plan_upgrade')
    await screen.findByRole('heading', { level: 1 })
    await userEvent.click(within(screen.getByRole('region', { name: 'Pro' })).getByRole('button', { name: 'Switch to Pro at the renewal' }))
    expect(await screen.findByText('Pro from 12 March 2027')).toBeInTheDocument()
    expect(within(screen.getByRole('region', { name: 'Pro' })).getByRole('button', { name: 'Pro from the renewal' })).toBeDisabled()
    const patch = fetch.mock.calls.find(([url, init]) => url === '/v1/accounts/a/subscription' && init?.method === 'PATCH')
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ plan: 'PRO' })
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the scheduled change' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel the change' }))
    await waitFor(() => expect(screen.queryByText('Pro from 12 March 2027')).toBeNull())
  })

  it('a lower plan the team outgrew says to remove members first (seat_limit, issue 38)', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody({ plan: 'TEAM', plan_renewal_at: '2027-03-12T10:00:00Z', start_next_period: true })),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/accounts/a/members': () => json(200, { members: [], seats: { used: 3, limit: 10 } }),
    })
    await render('plan_upgrade')
    await screen.findByRole('heading', { level: 1 })
    const pro = screen.getByRole('region', { name: 'Pro' })
    expect(await within(pro).findByTestId('plan-too-small')).toHaveTextContent('Remove 1 member first')
    expect(within(pro).getByRole('button', { name: 'Switch to Pro at the renewal' })).toBeDisabled()
  })
})
