import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { BlockingOverlay } from './blocking-overlay'

describe('BlockingOverlay', () => {
  it.each([
    ['trial_expired', 'Your trial has expired', 'Choose a plan'],
    ['plan_expired', 'Your plan has expired', 'Reactivate your plan'],
  ] as const)('%s links to plans?for=%s', async (kind, title, cta) => {
    await renderWithProviders(<BlockingOverlay kind={kind} accountId="a" sidebarHidden={false} />, '/dashboard/a/testimonials')
    expect(screen.getByRole('dialog', { name: title })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: cta })).toHaveAttribute('href', `/dashboard/a/plans?for=${kind}`)
  })

  it('processing says the payment is being processed, without a link', async () => {
    await renderWithProviders(<BlockingOverlay kind="processing" accountId="a" sidebarHidden />, '/dashboard/a/plans')
    expect(screen.getByRole('dialog', { name: 'Your payment is being processed' })).toBeInTheDocument()
    expect(screen.queryByRole('link')).toBeNull()
  })
})
