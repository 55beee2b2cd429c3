import { Suspense } from 'react'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorPopup } from '@/components/error-popup'
import { browserLocation } from '@/lib/checkout'
import { dismissError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, json, mockApi, CHECKOUT_ORIGIN, pricingBody } from '@/test/mock-api'
import { PaymentDetailsTab } from './payment-details-tab'

afterEach(() => {
  vi.restoreAllMocks()
  act(() => dismissError())
})

const card = {
  id: 'pm_card',
  method: 'card',
  details: { cardNumber: '4242', cardExpiryDate: '2027-03', cardLabel: 'Visa' },
}
const sepa = { id: 'pm_sepa', method: 'directdebit', details: { consumerAccount: 'NL91ABNA0417164300' } }
const address = {
  organization_name: 'Acme BV',
  street_and_number: 'Main street 1',
  postal_code: '1000',
  city: 'Brussels',
  region: 'Brussels',
  country: 'nl_BE',
  version: 3,
}

function billing(mandates: unknown[], billingAddress: unknown = address) {
  return { invoices: [], mandates, mandate_count: mandates.length, account_billing_address: billingAddress }
}

function render() {
  return renderWithProviders(
    <>
      <Suspense fallback={null}>
        <PaymentDetailsTab accountId="a" />
      </Suspense>
      <ErrorPopup />
    </>,
  )
}

const paidAccount = () => json(200, accountBody({ plan: 'PRO' }))

describe('PaymentDetailsTab', () => {
  it('a trial gets a short explanation and no payment details', async () => {
    const fetch = mockApi({ 'GET /v1/accounts/a': () => json(200, accountBody()) })
    await render()
    expect(await screen.findByText('Payment methods become available once you start a plan.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add payment method' })).toBeNull()
    expect(calls(fetch)).toEqual(['GET /v1/accounts/a'])
  })

  it('lists a card and a masked IBAN; removal needs a confirmation, then DELETEs the mandate', async () => {
    let mandates = [card, sepa]
    const fetch = mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing(mandates)),
      'DELETE /v1/accounts/a/billing/payment-methods': () => {
        mandates = [card]
        return new Response(null, { status: 204 })
      },
    })
    await render()
    const list = await screen.findByRole('list', { name: 'Payment methods' })
    const items = within(list).getAllByRole('listitem')
    expect(items[0]).toHaveTextContent('Visa ending in 4242')
    expect(items[0]).toHaveTextContent('Expires 03/27')
    expect(items[1]).toHaveTextContent('Direct debit')
    expect(items[1]).toHaveTextContent('NL91 **** 4300')

    await userEvent.click(within(items[1]).getByRole('button', { name: 'Remove payment method' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove this payment method?' })
    expect(within(dialog).getByText('Direct debit will no longer be used to pay your plan.')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, remove it' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    const remove = fetch.mock.calls.find(([, init]) => init?.method === 'DELETE')
    expect(JSON.parse(String(remove?.[1]?.body))).toEqual({ mandate_id: 'pm_sepa' })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
  })

  it('removal is disabled at one payment method, with an explanation', async () => {
    mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing([card])),
    })
    await render()
    const remove = await screen.findByRole('button', { name: 'Remove payment method' })
    expect(remove).toBeDisabled()
    expect(remove).toHaveAccessibleDescription('Your only payment method cannot be removed: add another one first.')
  })

  it('an IBAN shorter than 16 characters shows Invalid IBAN length', async () => {
    mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () =>
        json(200, billing([card, { id: 'pm_x', method: 'directdebit', details: { consumerAccount: 'NL91ABNA04' } }])),
    })
    await render()
    expect(await screen.findByText('Invalid IBAN length')).toBeInTheDocument()
  })

  it('add payment method explains the verification charge, then follows the checkout link', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing([card])),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'POST /v1/accounts/a/billing/payment-methods': () => json(201, { checkout_href: `${CHECKOUT_ORIGIN}/sandbox/checkout/pm` }),
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Add payment method' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a payment method' })
    expect(
      await within(dialog).findByText(
        'To verify the new payment method our payment provider checks it with your bank, which may ask you to confirm. At most €0.01 is charged, and refunded immediately.',
      ),
    ).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue to the payment provider' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${CHECKOUT_ORIGIN}/sandbox/checkout/pm`))
  })

  it('add payment method says when to try again once the account opened too many checkouts', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing([card])),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'POST /v1/accounts/a/billing/payment-methods': () =>
        new Response(JSON.stringify({ error: { status: 429, code: 'too_many_requests', message: 'Too many requests' } }), {
          status: 429,
          headers: { 'Retry-After': '540' },
        }),
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Add payment method' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a payment method' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue to the payment provider' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You have started adding a payment method several times in a short while. Please try again in 9 min.',
    )
    // Shown in the dialog only: no error popup on top of it.
    expect(screen.queryByText('Too many requests')).toBeNull()
    expect(assign).not.toHaveBeenCalled()
    expect(within(dialog).getByRole('button', { name: 'Continue to the payment provider' })).toBeEnabled()
  })

  it('saves the billing address with the loaded version', async () => {
    const fetch = mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing([card])),
      'PATCH /v1/accounts/a/billing-address': () => json(200, { ...address, version: 4 }),
    })
    await render()
    const city = await screen.findByLabelText('City')
    expect(city).toHaveValue('Brussels')
    expect(screen.getByLabelText('VAT number (optional)')).toHaveAttribute('placeholder', 'BE12345678')
    await userEvent.clear(city)
    await userEvent.type(city, 'Gent')
    await userEvent.click(screen.getByRole('button', { name: 'Save billing address' }))
    expect(await screen.findByText('Your billing address was saved.')).toBeInTheDocument()
    const patch = fetch.mock.calls.find(([, init]) => init?.method === 'PATCH')
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({
      organization_name: 'Acme BV',
      street_and_number: 'Main street 1',
      postal_code: '1000',
      city: 'Gent',
      region: 'Brussels',
      country: 'nl_BE',
      version: 3,
    })
  })

  it('409: says someone saved in between and offers to reload the address', async () => {
    let current = address
    mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing([card], current)),
      'PATCH /v1/accounts/a/billing-address': () => {
        current = { ...address, city: 'Antwerp', version: 4 }
        return json(409, { error: { status: 409, code: 'conflict', message: 'Edit conflict' } })
      },
    })
    await render()
    const city = await screen.findByLabelText('City')
    await userEvent.clear(city)
    await userEvent.type(city, 'Gent')
    await userEvent.click(screen.getByRole('button', { name: 'Save billing address' }))
    const alert = await screen.findByText(/Someone else saved this billing address in the meantime/)
    expect(alert.closest('[role="alert"]')).not.toBeNull()
    expect(screen.queryByText('Whoops.. There was an error.')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Reload billing address' }))
    await waitFor(() => expect(screen.getByLabelText('City')).toHaveValue('Antwerp'))
    expect(screen.queryByText(/Someone else saved this billing address/)).toBeNull()
  })

  it('422 invalid_vat_id shows the message under the VAT field', async () => {
    mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing([card])),
      'PATCH /v1/accounts/a/billing-address': () =>
        json(422, { error: { status: 422, code: 'invalid', message: 'Unprocessable entity', fields: { vat_id: 'invalid_vat_id' } } }),
    })
    await render()
    await userEvent.type(await screen.findByLabelText('VAT number (optional)'), 'BE0123456789')
    await userEvent.click(screen.getByRole('button', { name: 'Save billing address' }))
    const vat = screen.getByLabelText('VAT number (optional)')
    await waitFor(() =>
      expect(vat).toHaveAccessibleDescription('*please provide a valid VAT number (e.g. BE12345678)'),
    )
  })
  it("shows the VAT id's check: Checking… with its hint while pending, then the answer of the next save", async () => {
    let saved = { ...address, vat_id: 'BE0123456999', vat_id_status: 'pending' }
    mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing([card], saved)),
      'PATCH /v1/accounts/a/billing-address': () => {
        saved = { ...address, vat_id: 'BE0123456000', vat_id_status: 'invalid', version: 4 }
        return json(200, saved)
      },
    })
    await render()
    const status = await screen.findByTestId('vat-id-status')
    expect(status).toHaveAttribute('role', 'status')
    expect(status).toHaveTextContent('VAT id BE0123456999')
    expect(status).toHaveTextContent('Checking…')
    expect(status).toHaveTextContent('We keep checking your VAT id and email you the result')
    const vat = screen.getByLabelText('VAT number (optional)')
    await userEvent.clear(vat)
    await userEvent.type(vat, 'BE0123456000')
    await userEvent.click(screen.getByRole('button', { name: 'Save billing address' }))
    await waitFor(() => expect(screen.getByTestId('vat-id-status')).toHaveTextContent('Invalid'))
    expect(screen.getByTestId('vat-id-status')).toHaveTextContent('does not know this VAT id, so VAT is charged')
  })

  it('a verified VAT id shows Verified; an address without one shows no status', async () => {
    let current: unknown = { ...address, vat_id: 'BE0123456789', vat_id_status: 'verified' }
    mockApi({
      'GET /v1/accounts/a': paidAccount,
      'GET /v1/accounts/a/billing': () => json(200, billing([card], current)),
    })
    const view = await render()
    expect(await screen.findByTestId('vat-id-status')).toHaveTextContent('Verified')
    view.unmount()
    current = { ...address, vat_id_status: 'none' }
    await render()
    await screen.findByLabelText('City')
    expect(screen.queryByTestId('vat-id-status')).toBeNull()
  })
})
