import { Suspense } from 'react'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import i18n from 'i18next'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorPopup } from '@/components/error-popup'
import { browserLocation } from '@/lib/checkout'
import { rememberPlanCheckout, type CheckoutOutcome } from '@/lib/checkout-return'
import { dismissError } from '@/lib/error-store'
import frBilling from '@/locales/fr/billing.json'
import frCommon from '@/locales/fr/common.json'
import nlBilling from '@/locales/nl/billing.json'
import nlCommon from '@/locales/nl/common.json'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi, CHECKOUT_ORIGIN, pricingBody } from '@/test/mock-api'
import { fileSaver } from '../api/download-invoice'
import { InvoicesTab, InvoicesTabPending } from './invoices-tab'

afterEach(async () => {
  vi.restoreAllMocks()
  act(() => dismissError())
  await i18n.changeLanguage('en')
})


const invoices = [
  {
    id: 'inv-due',
    invoice_url: 'KUD-2026-000125',
    created_at: '2026-03-05T10:00:00Z',
    description: 'PAYMENTDUE_PRO',
    amount: 566.28,
    currency: 'EUR',
    status: 'DUE_PAYMENT',
  },
  {
    id: 'inv-processing',
    invoice_url: '',
    created_at: '2026-02-01T10:00:00Z',
    description: 'UPGRADE_TEAM',
    amount: 87.5,
    currency: 'EUR',
    status: 'PROCESSING',
  },
  {
    id: 'inv-paid',
    invoice_url: 'KUD-2026-000123',
    created_at: '2025-12-24T10:00:00Z',
    description: 'Renewal STARTER',
    amount: 217.8,
    currency: 'EUR',
    status: 'PAID',
  },
]

const billing = (list: unknown[]) => ({ invoices: list, mandates: [], mandate_count: 0, account_billing_address: null })

function render(checkout?: CheckoutOutcome) {
  return renderWithProviders(
    <>
      {/* As the route renders it: its pending component while GET billing runs. */}
      <Suspense fallback={<InvoicesTabPending />}>
        <InvoicesTab accountId="a" checkout={checkout} />
      </Suspense>
      <ErrorPopup />
    </>,
  )
}

function rowOf(text: string) {
  const row = screen.getByText(text).closest('tr')
  if (!row) throw new Error(`no row with ${text}`)
  return within(row)
}

describe('InvoicesTab', () => {
  it('back from paying an owed invoice: says the payment is being applied and re-reads the invoices until it shows paid', async () => {
    rememberPlanCheckout('a') // noted when the browser left: no plan was bought, the plan page must not welcome one
    let reads = 0
    const paid = invoices.map((invoice) => (invoice.id === 'inv-due' ? { ...invoice, status: 'PAID' } : invoice))
    mockApi({ 'GET /v1/accounts/a/billing': () => json(200, billing(++reads < 2 ? invoices : paid)) })
    await render('success')
    expect(await screen.findByRole('status')).toHaveTextContent('Thank you: your payment is being applied.')
    expect(rowOf('Pro plan').getByText('Payment due')).toBeInTheDocument()
    await waitFor(() => expect(rowOf('Pro plan').getByText('Paid')).toBeInTheDocument(), { timeout: 6000 })
    expect(sessionStorage.getItem('checkout_a')).toBeNull()
    const settled = reads
    await new Promise((resolve) => setTimeout(resolve, 3000)) // nothing due any more: no more reads
    expect(reads).toBe(settled)
  })

  it('back from a payment left unpaid: ends the open checkout and says the invoice is still due', async () => {
    const fetch = mockApi({
      'GET /v1/accounts/a/billing': () => json(200, billing(invoices)),
      'DELETE /v1/accounts/a/subscription/checkout': () => json(200, { status: 'cancelled' }),
      'GET /v1/accounts/a': () => json(404, { error: 'not_found', message: 'not found' }),
    })
    await render('cancelled')
    expect(await screen.findByRole('status')).toHaveTextContent('nothing was charged. The invoice is still due.')
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/accounts/a/subscription/checkout'))
  })

  it('shows skeleton rows, then the invoices in a table named Invoices', async () => {
    let answer: ((r: Response) => void) | undefined
    mockApi({ 'GET /v1/accounts/a/billing': () => new Promise<Response>((resolve) => (answer = resolve)) })
    await render()
    expect(await screen.findAllByTestId('invoice-skeleton')).toHaveLength(3)
    await waitFor(() => expect(answer).toBeDefined()) // the skeletons may show before the request is made
    answer!(json(200, billing(invoices)))
    const table = await screen.findByRole('table', { name: 'Invoices' })
    expect(await within(table).findByText('KUD-2026-000123')).toBeInTheDocument()
    expect(screen.queryByTestId('invoice-skeleton')).toBeNull()

    const paid = rowOf('KUD-2026-000123')
    expect(paid.getByText('24/12/25')).toBeInTheDocument()
    expect(paid.getByText('Renewal of the Starter plan')).toBeInTheDocument()
    expect(paid.getByText('€217.80')).toBeInTheDocument()
    expect(paid.getByText('Paid')).toBeInTheDocument()
    expect(paid.getByRole('button', { name: 'Download invoice KUD-2026-000123' })).toBeEnabled()
    expect(paid.queryByRole('button', { name: 'Pay' })).toBeNull()

    const processing = rowOf('Upgrade to Team')
    expect(processing.getByText('Processing')).toBeInTheDocument()
    expect(processing.getByRole('button', { name: 'Download invoice' })).toBeInTheDocument()
  })

  it('a DUE_PAYMENT row shows a dash instead of its number and a Pay button that goes to the checkout', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    const fetch = mockApi({
      'GET /v1/accounts/a/billing': () => json(200, billing(invoices)),
      'GET /v1/pricing/a': () => json(200, pricingBody),
      'POST /v1/accounts/a/invoices/inv-due/payment': () => json(201, { checkout_href: `${CHECKOUT_ORIGIN}/sandbox/checkout/9` }),
    })
    await render()
    await screen.findByText('Pro plan')
    const due = rowOf('Pro plan')
    const cells = due.getAllByRole('cell')
    expect(cells[0]).toHaveTextContent(/^-$/)
    expect(screen.queryByText('KUD-2026-000125')).toBeNull()
    expect(due.getByText('Payment due')).toBeInTheDocument()
    expect(due.getByText('€566.28')).toBeInTheDocument()
    expect(due.queryByRole('button', { name: /Download invoice/ })).toBeNull()
    await userEvent.click(due.getByRole('button', { name: 'Pay' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${CHECKOUT_ORIGIN}/sandbox/checkout/9`))
    expect(calls(fetch)).toContain('POST /v1/accounts/a/invoices/inv-due/payment')
    // It stays busy while the browser leaves.
    expect(due.getByRole('button', { name: 'Pay' })).toHaveAttribute('aria-busy', 'true')
  })

  it('download fetches the presigned file and saves it as "{number}.pdf"', async () => {
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {})
    const fetch = mockApi({
      'GET /v1/accounts/a/billing': () => json(200, billing(invoices)),
      'POST /v1/accounts/a/invoices/inv-paid/download': () =>
        json(200, { presigned_url: 'http://127.0.0.1:9000/invoices/inv-paid.pdf?X-Amz-Signature=1' }),
      'GET http://127.0.0.1:9000/invoices/inv-paid.pdf?X-Amz-Signature=1': () => new Response('%PDF-1.7', { status: 200 }),
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Download invoice KUD-2026-000123' }))
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1))
    expect(save.mock.calls[0][1]).toBe('KUD-2026-000123.pdf')
    expect(await (save.mock.calls[0][0] as Blob).text()).toBe('%PDF-1.7')
    expect(calls(fetch)).toContain('POST /v1/accounts/a/invoices/inv-paid/download')
    // The presigned link is fetched as is: no bearer token goes to the storage.
    const file = fetch.mock.calls.find(([url]) => url.startsWith('http://127.0.0.1:9000/'))
    expect(file?.[1]).toBeUndefined()
  })

  it('a failed file fetch shows the 500 popup and saves nothing', async () => {
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {})
    mockApi({
      'GET /v1/accounts/a/billing': () => json(200, billing(invoices)),
      'POST /v1/accounts/a/invoices/inv-paid/download': () => json(200, { presigned_url: 'http://127.0.0.1:9000/x.pdf' }),
      'GET http://127.0.0.1:9000/x.pdf': () => new Response('denied', { status: 403 }),
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Download invoice KUD-2026-000123' }))
    expect(await screen.findByText('The server encountered an error.')).toBeInTheDocument()
    expect(save).not.toHaveBeenCalled()
  })

  it('shows an empty-state message without invoices', async () => {
    mockApi({ 'GET /v1/accounts/a/billing': () => json(200, billing([])) })
    await render()
    expect(await screen.findByText('You have no invoices yet.')).toBeInTheDocument()
    expect(screen.getByRole('table', { name: 'Invoices' })).toBeInTheDocument()
  })

  describe('credit notes', () => {
    // A refund of invoice KUD-2026-000123: its credit note, listed first.
    const creditNote = {
      id: 'cn-1',
      invoice_url: 'KUD-CN-2026-000001',
      created_at: '2026-03-06T10:00:00Z',
      description: 'CREDITNOTE_STARTER',
      amount: -217.8,
      currency: 'EUR',
      status: 'CREDITED',
      kind: 'credit_note',
      corrects: 'inv-paid',
    }
    const withCreditNote = [creditNote, ...invoices.map((invoice) => ({ ...invoice, kind: 'invoice' }))]

    it('shows a credit note with its negative amount, status Credited and the invoice it corrects', async () => {
      mockApi({ 'GET /v1/accounts/a/billing': () => json(200, billing(withCreditNote)) })
      await render()
      const row = rowOf(await screen.findByText('KUD-CN-2026-000001').then((el) => el.textContent ?? ''))
      expect(row.getByText('Credit note for invoice KUD-2026-000123')).toBeInTheDocument()
      expect(row.getByText('-€217.80')).toBeInTheDocument()
      expect(row.getByText('Credited')).toBeInTheDocument()
      expect(row.getByRole('button', { name: 'Download credit note KUD-CN-2026-000001' })).toBeEnabled()
      expect(row.queryByRole('button', { name: 'Pay' })).toBeNull()
      // The invoice it corrects is still listed, paid.
      expect(rowOf('KUD-2026-000123').getByText('Paid')).toBeInTheDocument()
    })

    it('downloads a credit note like an invoice, saved as "{number}.pdf"', async () => {
      const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {})
      const fetch = mockApi({
        'GET /v1/accounts/a/billing': () => json(200, billing(withCreditNote)),
        'POST /v1/accounts/a/invoices/cn-1/download': () => json(200, { presigned_url: 'http://127.0.0.1:9000/cn.pdf?X-Amz-Signature=1' }),
        'GET http://127.0.0.1:9000/cn.pdf?X-Amz-Signature=1': () => new Response('%PDF-1.7', { status: 200 }),
      })
      await render()
      await userEvent.click(await screen.findByRole('button', { name: 'Download credit note KUD-CN-2026-000001' }))
      await waitFor(() => expect(save).toHaveBeenCalledTimes(1))
      expect(save.mock.calls[0][1]).toBe('KUD-CN-2026-000001.pdf')
      expect(calls(fetch)).toContain('POST /v1/accounts/a/invoices/cn-1/download')
    })

    it('without the corrected invoice in the list, names the plan it credits', async () => {
      mockApi({ 'GET /v1/accounts/a/billing': () => json(200, billing([creditNote])) })
      await render()
      expect(await screen.findByText('Credit note, Starter plan')).toBeInTheDocument()
    })

    it.each([
      ['nl', nlBilling, nlCommon, 'Gecrediteerd', '€ -217,80', 'Creditnota bij factuur KUD-2026-000123', 'Creditnota KUD-CN-2026-000001 downloaden'],
      ['fr', frBilling, frCommon, 'Créditée', '-217,80 €', 'Note de crédit sur la facture KUD-2026-000123',
        'Télécharger la note de crédit KUD-CN-2026-000001'],
    ])('is written in %s', async (lang, bundle, common, status, amount, description, download) => {
      i18n.addResourceBundle(lang, 'billing', bundle)
      i18n.addResourceBundle(lang, 'common', common)
      await i18n.changeLanguage(lang)
      mockApi({ 'GET /v1/accounts/a/billing': () => json(200, billing(withCreditNote)) })
      await render()
      const row = rowOf(await screen.findByText('KUD-CN-2026-000001').then((el) => el.textContent ?? ''))
      expect(row.getByText(status)).toBeInTheDocument()
      expect(row.getByText(description)).toBeInTheDocument()
      expect(row.getByText((_, el) => el?.tagName === 'TD' && el.textContent?.replace(/\s/g, ' ') === amount.replace(/\s/g, ' '))).toBeInTheDocument()
      expect(row.getByRole('button', { name: download })).toBeInTheDocument()
    })
  })
})
