import { Suspense } from 'react'
import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { accountBody, json, mockApi } from '@/test/mock-api'
import { PaymentDetailsTab } from './payment-details-tab'

// Issue 37 item 9: a trial's payment details page draws one card of text; the
// cards of a plan (payment methods, billing address: their forms and
// dialogs) are a chunk it never fetches. A file of its own: the module
// registry is the file's, so no other test has loaded the cards before.
const loaded = vi.hoisted(() => ({ cards: 0 }))
vi.mock('./payment-details-cards', async (importOriginal) => {
  loaded.cards++
  return importOriginal()
})

afterEach(() => vi.restoreAllMocks())

describe('PaymentDetailsTab code', () => {
  it("a trial's page does not load the cards of a plan", async () => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, accountBody()) })
    await renderWithProviders(
      <Suspense fallback={null}>
        <PaymentDetailsTab accountId="a" />
      </Suspense>,
    )
    expect(await screen.findByText('Payment methods become available once you start a plan.')).toBeInTheDocument()
    expect(loaded.cards).toBe(0)
  })

  it("a plan's page loads them", async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, accountBody({ plan: 'PRO' })),
      'GET /v1/accounts/a/billing': () =>
        json(200, { invoices: [], mandates: [], mandate_count: 0, account_billing_address: null }),
    })
    await renderWithProviders(
      <Suspense fallback={null}>
        <PaymentDetailsTab accountId="a" />
      </Suspense>,
    )
    expect(await screen.findByRole('button', { name: 'Add payment method' })).toBeInTheDocument()
    expect(loaded.cards).toBe(1)
  })
})
