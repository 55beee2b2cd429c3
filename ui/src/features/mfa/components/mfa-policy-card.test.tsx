import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { json, mockApi } from '@/test/mock-api'
import { MfaPolicyCard } from './mfa-policy-card'

afterEach(() => vi.unstubAllGlobals())

const patchBodies = (fetch: ReturnType<typeof mockApi>) =>
  fetch.mock.calls
    .filter(([url, init]) => init?.method === 'PATCH' && String(url) === '/v1/accounts/acc-1')
    .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>)

describe('MfaPolicyCard', () => {
  it('asks for the current password to turn the policy off, and says a wrong one aloud (issue 35)', async () => {
    const fetch = mockApi({
      'PATCH /v1/accounts/acc-1': (init) => {
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>
        if (body.current_password !== 'Secret1!')
          return json(422, { error: { status: 422, code: 'unprocessable_entity', message: 'no', fields: { current_password: 'wrong_password' } } })
        return json(200, { require_mfa: false })
      },
    })
    await renderWithProviders(<MfaPolicyCard accountId="acc-1" on hasPassword />)
    await userEvent.click(screen.getByRole('switch', { name: 'Require two-factor authentication' }))
    const password = await screen.findByLabelText('Current password')
    await userEvent.type(password, 'Guess12!')
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('That password is not right. Try again.')).toBeInTheDocument()
    expect(password).toHaveAttribute('aria-invalid', 'true')
    await userEvent.clear(password)
    await userEvent.type(password, 'Secret1!')
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await vi.waitFor(() => expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument())
    expect(patchBodies(fetch)).toEqual([
      { require_mfa: false, current_password: 'Guess12!' },
      { require_mfa: false, current_password: 'Secret1!' },
    ])
  })

  it('offers the Google step-up to an owner without a password', async () => {
    mockApi({
      'PATCH /v1/accounts/acc-1': () =>
        json(403, { error: { status: 403, code: 'reauthentication_required', message: 'please confirm it is you' } }),
    })
    await renderWithProviders(<MfaPolicyCard accountId="acc-1" on hasPassword={false} />)
    await userEvent.click(screen.getByRole('switch', { name: 'Require two-factor authentication' }))
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument()
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }))
    expect(await screen.findByRole('button', { name: /Google/ })).toBeInTheDocument()
  })

  it('turns the policy on without asking for a password', async () => {
    const fetch = mockApi({ 'PATCH /v1/accounts/acc-1': () => json(200, { require_mfa: true }) })
    await renderWithProviders(<MfaPolicyCard accountId="acc-1" on={false} hasPassword />)
    await userEvent.click(screen.getByRole('switch', { name: 'Require two-factor authentication' }))
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument()
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }))
    await vi.waitFor(() => expect(patchBodies(fetch)).toEqual([{ require_mfa: true }]))
  })
})
