import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { calls, json, mockApi } from '@/test/mock-api'
import { renderWithProviders } from '@/test/render'
import { BlockingOverlay, PROCESSING_WAY_OUT_MS } from './blocking-overlay'

describe('BlockingOverlay', () => {
  it.each([
    ['trial_expired', 'Your trial has expired', 'Choose a plan'],
    ['plan_expired', 'Your plan has expired', 'Reactivate your plan'],
  ] as const)('%s links to plans?for=%s', async (kind, title, cta) => {
    await renderWithProviders(<BlockingOverlay kind={kind} accountId="a" sidebarHidden={false} owner />, '/dashboard/a/testimonials')
    expect(screen.getByRole('dialog', { name: title })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: cta })).toHaveAttribute('href', `/dashboard/a/plans?for=${kind}`)
  })

  it('processing says the payment is being processed, without a link', async () => {
    await renderWithProviders(<BlockingOverlay kind="processing" accountId="a" sidebarHidden owner />, '/dashboard/a/plans')
    expect(screen.getByRole('dialog', { name: 'Your payment is being processed' })).toBeInTheDocument()
    expect(screen.queryByRole('link')).toBeNull()
  })

  it('processing offers "Cancel payment" after a few seconds, which ends the checkout', async () => {
    const fetch = mockApi({ 'DELETE /v1/accounts/a/subscription/checkout': () => json(200, { status: 'cancelled' }) })
    await renderWithProviders(<BlockingOverlay kind="processing" accountId="a" sidebarHidden owner />, '/dashboard/a/testimonials')
    expect(screen.queryByRole('button', { name: 'Cancel payment' })).toBeNull() // not at once
    const cancel = await screen.findByRole('button', { name: 'Cancel payment' }, { timeout: PROCESSING_WAY_OUT_MS + 2000 })
    await userEvent.click(cancel)
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/accounts/a/subscription/checkout'))
  }, PROCESSING_WAY_OUT_MS + 5000)
})
