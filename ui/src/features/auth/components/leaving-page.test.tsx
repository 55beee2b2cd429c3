import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { formatLongDateTime } from '@/lib/format'
import { getStoredAccountId, saveSession } from '@/lib/session'
import { LeavingPage } from './leaving-page'

beforeEach(() => saveSession({ token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: '' }))
afterEach(() => vi.unstubAllGlobals())

const at = '2026-12-26T10:30:00Z'

describe('LeavingPage', () => {
  it('says when the user is deleted, with the time, and cancels re-authenticated into an account of their own', async () => {
    const fetch = mockApi({
      'GET /v1/users/me/deletion': () => json(200, { deletion_at: at, blocked_by: null }),
      'POST /v1/users/me/deletion/cancel': () => json(200, { account_id: 'acc-9' }),
    })
    const { router } = await renderWithProviders(<LeavingPage />, '/leaving')
    expect(await screen.findByText(new RegExp(`Your user will be deleted on ${formatLongDateTime(at, 'en')}\\.`))).toHaveAttribute('role', 'status')
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Cancel my deletion' }))
    await userEvent.type(await screen.findByLabelText('Current password (if you have one)'), 'Secret1!')
    await userEvent.click(screen.getByRole('button', { name: 'Keep my user' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acc-9/testimonials'))
    const cancel = fetch.mock.calls.find(([url]) => String(url) === '/v1/users/me/deletion/cancel')
    expect(JSON.parse(String(cancel?.[1]?.body))).toEqual({ current_password: 'Secret1!' })
    expect(getStoredAccountId()).toBe('acc-9')
  })

  it('keeps the dialog open on a wrong password', async () => {
    const fetch = mockApi({
      'GET /v1/users/me/deletion': () => json(200, { deletion_at: at, blocked_by: null }),
      'POST /v1/users/me/deletion/cancel': () =>
        json(422, { error: { status: 422, code: 'unprocessable_entity', message: 'Unprocessable entity', fields: { current_password: 'wrong_password' } } }),
    })
    await renderWithProviders(<LeavingPage />, '/leaving')
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel my deletion' }))
    await userEvent.type(await screen.findByLabelText('Current password (if you have one)'), 'Guess12!')
    await userEvent.click(screen.getByRole('button', { name: 'Keep my user' }))
    expect(await screen.findByText('*the current password is wrong')).toBeInTheDocument()
    expect(calls(fetch)).toContain('POST /v1/users/me/deletion/cancel')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })

  it('says what blocks the erasure', async () => {
    mockApi({ 'GET /v1/users/me/deletion': () => json(200, { deletion_at: at, blocked_by: 'Acme' }) })
    await renderWithProviders(<LeavingPage />, '/leaving')
    expect(await screen.findByRole('alert')).toHaveTextContent('Your deletion is waiting: you own Acme.')
  })
})
