import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { json } from '@/test/mock-api'
import { getToken } from '@/lib/session'
import { signupBrowserKey } from '../api/browser-key'
import { ConfirmEmailPage } from './confirm-email-page'

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
  act(() => dismissError())
})

/** A token whose payload names user sub (the page reads only that). */
const jwtOf = (sub: string) => `h.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.s`
const future = new Date(Date.now() + 3_600_000).toISOString()

/** Stubs fetch: activate-user answers with answer; every call is recorded. */
function stub(answer: () => Response) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    void init
    if (url === '/v1/auth/activate-user') return answer()
    return new Response(null, { status: 204 })
  })
  vi.stubGlobal('fetch', fetch)
  return fetch
}

const activationBody = (fetch: ReturnType<typeof stub>) =>
  JSON.parse(String(fetch.mock.calls.find(([url]) => url === '/v1/auth/activate-user')?.[1]?.body)) as Record<string, string>

describe('ConfirmEmailPage: activation signs in only the browser that signed up', () => {
  it('sends the browser key of the sign-up and keeps the session it gets', async () => {
    const key = signupBrowserKey()
    const fetch = stub(() => json(201, { token: jwtOf('u1'), token_expiry: future, account_id: 'acc-1' }))
    await renderWithProviders(<ConfirmEmailPage token="tok" />, '/auth/confirm-email')
    expect(await screen.findByText(/taking you to your dashboard/)).toBeInTheDocument()
    expect(activationBody(fetch)).toEqual({ token: 'tok', browser_key: key })
    expect(getToken()).toBe(jwtOf('u1'))
  })

  it('in another browser: confirmed, asks to sign in, keeps no session', async () => {
    const fetch = stub(() => json(200, {}))
    await renderWithProviders(<ConfirmEmailPage token="tok" />, '/auth/confirm-email')
    expect(await screen.findByText('Your e-mail address is confirmed. Sign in to continue.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin')
    expect(activationBody(fetch)).toEqual({ token: 'tok' })
    expect(getToken()).toBeNull()
  })

  it('never replaces the session of another user silently: staying keeps it and ends the new one', async () => {
    localStorage.setItem('auth_token', jwtOf('other'))
    localStorage.setItem('auth_token_expiry', future)
    localStorage.setItem('account_id', 'acc-other')
    const fetch = stub(() => json(201, { token: jwtOf('u1'), token_expiry: future, account_id: 'acc-1' }))
    await renderWithProviders(<ConfirmEmailPage token="tok" />, '/auth/confirm-email')
    expect(await screen.findByRole('alert')).toHaveTextContent('Someone else is signed in in this browser')
    expect(getToken()).toBe(jwtOf('other'))
    await userEvent.click(screen.getByRole('button', { name: 'Stay signed in as before' }))
    expect(getToken()).toBe(jwtOf('other'))
    await waitFor(() =>
      expect(
        fetch.mock.calls.some(
          ([url, init]) =>
            url === '/v1/auth/signout' && (init?.headers as Record<string, string>).Authorization === `Bearer ${jwtOf('u1')}`,
        ),
      ).toBe(true),
    )
  })

  it('switches to the confirmed account when asked to', async () => {
    localStorage.setItem('auth_token', jwtOf('other'))
    localStorage.setItem('auth_token_expiry', future)
    stub(() => json(201, { token: jwtOf('u1'), token_expiry: future, account_id: 'acc-1' }))
    await renderWithProviders(<ConfirmEmailPage token="tok" />, '/auth/confirm-email')
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to the confirmed account' }))
    expect(getToken()).toBe(jwtOf('u1'))
    expect(await screen.findByText(/taking you to your dashboard/)).toBeInTheDocument()
  })

  it('replaces a session of the same user without asking', async () => {
    localStorage.setItem('auth_token', jwtOf('u1') + 'old')
    localStorage.setItem('auth_token_expiry', future)
    stub(() => json(201, { token: jwtOf('u1'), token_expiry: future, account_id: 'acc-1' }))
    await renderWithProviders(<ConfirmEmailPage token="tok" />, '/auth/confirm-email')
    expect(await screen.findByText(/taking you to your dashboard/)).toBeInTheDocument()
    expect(getToken()).toBe(jwtOf('u1'))
  })
})
