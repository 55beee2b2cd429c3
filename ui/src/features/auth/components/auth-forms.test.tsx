import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorPopup } from '@/components/error-popup'
import { dismissError } from '@/lib/error-store'
import { getStoredAccountId, getToken } from '@/lib/session'
import { renderWithProviders } from '@/test/render'
import { ResetPasswordPage } from './reset-password-page'
import { SigninForm } from './signin-form'
import { pendingChallenge } from '../api/signin-mfa'

afterEach(() => {
  vi.unstubAllGlobals()
  act(() => dismissError())
})

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status })

describe('ResetPasswordPage', () => {
  it('a different repeat is error 444 on the client: field message and popup, no call', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    await renderWithProviders(
      <>
        <ResetPasswordPage token="tok" />
        <ErrorPopup />
      </>,
      '/auth/reset-password',
    )
    await userEvent.type(screen.getByLabelText('New password'), 'Secret12!')
    await userEvent.type(screen.getByLabelText('Repeat password'), 'Secret12?')
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }))
    expect(await screen.findByText('*passwords do not match')).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('The given passwords do not match.')
    expect(fetch).not.toHaveBeenCalled()
  })

  it('posts password and token, then shows the success message with a sign-in link', async () => {
    const fetch = vi.fn(async () => json(200, {}))
    vi.stubGlobal('fetch', fetch)
    await renderWithProviders(<ResetPasswordPage token="tok" />, '/auth/reset-password')
    await userEvent.type(screen.getByLabelText('New password'), 'Secret12!')
    await userEvent.type(screen.getByLabelText('Repeat password'), 'Secret12!')
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }))
    expect(await screen.findByText('Password changed')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/signin')
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(JSON.parse(String(init.body))).toEqual({ password: 'Secret12!', token: 'tok' })
  })

  it('without a token offers a new link', async () => {
    vi.stubGlobal('fetch', vi.fn())
    await renderWithProviders(<ResetPasswordPage />, '/auth/reset-password')
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toBeInTheDocument()
  })
})

describe('SigninForm', () => {
  it('bad credentials (401) show the form error and keep the user on the page', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(401, { error: { status: 401, code: 'unauthorized', message: 'Unauthorized' } })))
    await renderWithProviders(<SigninForm />, '/signin')
    await userEvent.type(screen.getByLabelText('E-mail'), 'jane@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'Secret12!')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByText('The e-mail address or password is not correct.')).toBeInTheDocument()
    expect(getToken()).toBeNull()
  })

  it('stores the session and goes to the testimonials page', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(201, { token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'acc-1' })),
    )
    const { router } = await renderWithProviders(<SigninForm />, '/signin')
    await userEvent.type(screen.getByLabelText('E-mail'), 'jane@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'Secret12!')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acc-1/testimonials'))
    expect(getToken()).toBe('tok')
    expect(getStoredAccountId()).toBe('acc-1')
  })

  it('a user being deleted who belongs to no account (account_id "") lands on their deletion (issue 35)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(201, { token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: '' })))
    const { router } = await renderWithProviders(<SigninForm />, '/signin')
    await userEvent.type(screen.getByLabelText('E-mail'), 'leaving@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'Secret12!')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/leaving'))
    expect(getToken()).toBe('tok')
  })

  it('a user with a second factor (202) gets no session and goes to the challenge screen', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(202, { mfa_required: true, challenge: 'ch-9', methods: ['totp', 'recovery_code'] })),
    )
    const { router } = await renderWithProviders(<SigninForm redirect="/invitation?token=t" />, '/signin')
    await userEvent.type(screen.getByLabelText('E-mail'), 'jane@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'Secret12!')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin/verify'))
    expect(getToken()).toBeNull()
    expect(pendingChallenge()).toEqual({
      mfa_required: true, challenge: 'ch-9', methods: ['totp', 'recovery_code'], redirect: '/invitation?token=t',
    })
  })
})
