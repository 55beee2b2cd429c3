import { Suspense } from 'react'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorPopup } from '@/components/error-popup'
import { browserLocation } from '@/lib/checkout'
import { dismissError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, json, mockApi, CHECKOUT_ORIGIN, pricingBody } from '@/test/mock-api'
import { PlansPage, PlansPagePending } from './plans-page'

afterEach(() => {
  act(() => dismissError())
})

function render() {
  return renderWithProviders(
    <>
      <Suspense fallback={<PlansPagePending />}>
        <PlansPage accountId="a" />
      </Suspense>
      <ErrorPopup />
    </>,
    '/dashboard/a/plans',
  )
}

/** SPRING20: 20 % off Pro and Team for the first 2 years. */
const spring = {
  ...pricingBody,
  pricing_table: { starter_pricing: 180, pro_pricing: 374.4, team_pricing: 950.4 },
  promotion: { code: 'SPRING20', percent_off: 20, duration: 'years', duration_years: 2, plans: ['TEAM', 'PRO'] },
}

const refused = (status: number, field?: string) =>
  json(status, {
    error: { status, code: status === 429 ? 'too_many_requests' : 'unprocessable_entity', message: 'x', fields: field ? { promotion_code: field } : undefined },
  })

describe('Promotion code on the plans page (issue 38)', () => {
  it('applying a code re-fetches the prices with it: the cards show the discounted prices and what the code does; the checkout carries it', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    let posted: unknown
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/pricing/a?promotion_code=SPRING20': () => json(200, spring),
      'POST /v1/accounts/a/subscription': (init) => {
        posted = JSON.parse(String(init?.body))
        return json(201, { checkout_href: `${CHECKOUT_ORIGIN}/sandbox/checkout/9` })
      },
    })
    await render()
    await screen.findByRole('heading', { level: 1 })
    await userEvent.type(screen.getByLabelText('Promotion code'), 'spring20')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    const applied = await screen.findByTestId('promotion-applied')
    expect(applied).toHaveTextContent('SPRING20: 20% off on Pro and Team, for your first 2 years. The prices below include it.')
    const team = screen.getByRole('region', { name: 'Team' })
    expect(within(team).getByTestId('yearly-price')).toHaveTextContent('€950.40 per year, billed annually')
    expect(within(screen.getByRole('region', { name: 'Starter' })).getByTestId('yearly-price')).toHaveTextContent('€180 per year')
    // Removing the code brings the list prices back.
    await userEvent.click(screen.getByRole('button', { name: 'Remove the code' }))
    expect(within(screen.getByRole('region', { name: 'Team' })).getByTestId('yearly-price')).toHaveTextContent('€1,188 per year')
    await userEvent.type(screen.getByLabelText('Promotion code'), 'Spring20')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await screen.findByTestId('promotion-applied')
    await userEvent.click(within(screen.getByRole('region', { name: 'Team' })).getByRole('button', { name: 'Start with Team' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${CHECKOUT_ORIGIN}/sandbox/checkout/9`))
    expect(posted).toEqual({ plan: 'TEAM', promotion_code: 'SPRING20' })
    expect(calls(fetch)).toContain('GET /v1/pricing/a?promotion_code=SPRING20')
  })

  it.each([
    ['promotion_expired', 'This promotion code has expired.'],
    ['promotion_used_up', 'This promotion code has been used up.'],
    ['promotion_unknown', 'This promotion code does not exist. Check how it is spelled.'],
    ['promotion_already_active', 'Your account already has a promotion running: one code at a time.'],
  ])('a refused code (%s) is said beside the field, no popup, list prices kept', async (field, message) => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/pricing/a?promotion_code=OLD10': () => refused(422, field),
    })
    await render()
    await screen.findByRole('heading', { level: 1 })
    const input = screen.getByLabelText('Promotion code')
    await userEvent.type(input, 'old10')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    expect(await screen.findByText(message)).toBeInTheDocument()
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription(message)
    expect(screen.queryByText('Whoops.. There was an error.')).toBeNull()
    expect(within(screen.getByRole('region', { name: 'Pro' })).getByTestId('yearly-price')).toHaveTextContent('€468 per year')
  })

  it('too many tries (429) say so beside the field; a malformed code is refused without asking the api', async () => {
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/pricing/a?promotion_code=GUESS1': () => refused(429),
    })
    await render()
    await screen.findByRole('heading', { level: 1 })
    const input = screen.getByLabelText('Promotion code')
    await userEvent.type(input, 'x!')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    expect(await screen.findByText('This promotion code does not exist. Check how it is spelled.')).toBeInTheDocument()
    expect(calls(fetch).filter((c) => c.includes('promotion_code'))).toEqual([])
    await userEvent.clear(input)
    await userEvent.type(input, 'guess1')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    expect(await screen.findByText('Too many codes tried. Please wait a while before trying again.')).toBeInTheDocument()
  })

  it('a code the checkout refuses meanwhile (used up) is said with the code, no popup', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody()),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'GET /v1/pricing/a?promotion_code=SPRING20': () => json(200, spring),
      'POST /v1/accounts/a/subscription': () => refused(422, 'promotion_used_up'),
    })
    await render()
    await screen.findByRole('heading', { level: 1 })
    await userEvent.type(screen.getByLabelText('Promotion code'), 'SPRING20')
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await screen.findByTestId('promotion-applied')
    await userEvent.click(screen.getByRole('button', { name: 'Start with Pro' }))
    expect(await screen.findByText('This promotion code has been used up.')).toBeInTheDocument()
    expect(screen.queryByText('Whoops.. There was an error.')).toBeNull()
    expect(screen.getByRole('button', { name: 'Start with Pro' })).toBeEnabled()
  })

  it('texts exist in nl and fr', async () => {
    const nl = (await import('@/locales/nl/plans.json')).default.promotion
    const fr = (await import('@/locales/fr/plans.json')).default.promotion
    const en = (await import('@/locales/en/plans.json')).default.promotion
    const keys = (o: object): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' ? keys(v).map((x) => `${k}.${x}`) : [k])).sort()
    expect(keys(nl)).toEqual(keys(en))
    expect(keys(fr)).toEqual(keys(en))
  })
})
