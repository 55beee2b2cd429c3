import { act, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { rememberOidcState } from '@/lib/oidc-state'
import { AuthCallbackPage } from './auth-callback-page'

afterEach(() => {
  vi.unstubAllGlobals()
  sessionStorage.clear()
  act(() => dismissError())
})

const callbackOk = () => json(201, { scope: 'signup', email: 'g@example.com', token: 't', token_expiry: '', account_id: 'a' })

describe('AuthCallbackPage: login CSRF', () => {
  it('refuses a callback this browser did not start, without asking the server', async () => {
    const fetch = mockApi({})
    await renderWithProviders(<AuthCallbackPage code="c" state="forged" />, '/auth/callback')
    expect(await screen.findByRole('alert')).toBeInTheDocument()
    expect(calls(fetch).filter((c) => c.startsWith('PUT /v1/auth/callback'))).toEqual([])
  })

  it('goes on with the state this tab started, once', async () => {
    rememberOidcState('https://accounts.example.com/auth?client_id=x&state=st-1&nonce=n')
    const fetch = vi.fn(async (url: string) => (url.startsWith('/v1/auth/callback') ? callbackOk() : json(404, {})))
    vi.stubGlobal('fetch', fetch)
    await renderWithProviders(<AuthCallbackPage code="c" state="st-1" />, '/auth/callback')
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/v1/auth/callback?state=st-1'))).toBe(true))
    expect(sessionStorage.getItem('oidc_state')).toBeNull()
  })
})

describe('AuthCallbackPage: a step-up', () => {
  it('goes back to the page that asked for it, keeping the session', async () => {
    rememberOidcState('https://accounts.example.com/auth?client_id=x&state=st-3&nonce=n')
    sessionStorage.setItem('oidc_return_to', '/dashboard/a/settings')
    localStorage.setItem('auth_token', 'kept')
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { scope: 'reauth', email: 'g@example.com' })))
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-3" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/a/settings'))
    expect(localStorage.getItem('auth_token')).toBe('kept')
    expect(sessionStorage.getItem('oidc_return_to')).toBeNull()
    localStorage.clear()
  })
})

describe('AuthCallbackPage: an address Google has not verified', () => {
  it('says so instead of the generic failure', async () => {
    rememberOidcState('https://accounts.example.com/auth?client_id=x&state=st-2&nonce=n')
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(403, { error: { status: 403, code: 'email_not_verified', message: 'Google has not verified this e-mail address' } }),
      ),
    )
    await renderWithProviders(<AuthCallbackPage code="c" state="st-2" />, '/auth/callback')
    expect(await screen.findByRole('alert')).toHaveTextContent('Google has not verified this e-mail address')
  })
})

describe('AuthCallbackPage: a second factor is due', () => {
  it('keeps the challenge, starts no session and goes to the challenge screen', async () => {
    rememberOidcState('https://accounts.example.com/auth?client_id=x&state=st-mfa&nonce=n')
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(202, { scope: 'signin', email: 'g@example.com', mfa_required: true, challenge: 'ch-g', methods: ['totp'] }),
      ),
    )
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-mfa" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin/verify'))
    expect(localStorage.getItem('auth_token')).toBeNull()
    expect(JSON.parse(sessionStorage.getItem('mfa_challenge') ?? 'null')).toMatchObject({ challenge: 'ch-g', methods: ['totp'] })
  })
})
