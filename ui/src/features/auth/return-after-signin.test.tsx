import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryHistory } from '@tanstack/react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { rememberOidcState } from '@/lib/oidc-state'
import { saveSession } from '@/lib/session'
import { renderWithProviders } from '@/test/render'
import { json, mockApi } from '@/test/mock-api'
import { createAppRouter } from '@/router'
import { signinReturningTo } from './api/session-schema'
import { pendingChallenge, saveChallenge } from './api/signin-mfa'
import { AuthCallbackPage } from './components/auth-callback-page'
import { SigninForm } from './components/signin-form'
import { SigninVerifyPage } from './components/signin-verify-page'

// Issue 37 item 4: a mail's link (an export, an invitation, a deletion, a
// bill) opened while signed out comes back after signing in, by any way of
// signing in; only a same-origin path is ever followed.

afterEach(() => {
  sessionStorage.clear()
})

const session = { token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'acme' }

/** The OIDC callback's answer (its URL carries the state and code). */
function answerCallback(status: number, body: object) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => (url.startsWith('/v1/auth/callback') ? json(status, body) : json(404, {}))))
}

async function openSignedOut(path: string) {
  const router = createAppRouter(createQueryClient(), createMemoryHistory({ initialEntries: [path] }))
  await router.load()
  return router.state.location
}

describe('signed out, a dashboard or export link goes to sign-in with where it led', () => {
  it.each([
    '/dashboard/a1/exports/e1',
    '/dashboard/a1/billing/payment-details',
    '/dashboard/a1/account-settings/plan?tab=1',
    '/exports/e1',
  ])('%s', async (path) => {
    const location = await openSignedOut(path)
    expect(location.pathname).toBe('/signin')
    expect(location.search).toEqual({ redirect: path })
  })

  it('the 401 handler keeps the page too, but not sign-in itself nor the start page', () => {
    expect(signinReturningTo('/dashboard/a1/team')).toEqual({ to: '/signin', search: { redirect: '/dashboard/a1/team' } })
    expect(signinReturningTo('/invitation?token=t')).toEqual({ to: '/signin', search: { redirect: '/invitation?token=t' } })
    expect(signinReturningTo('/signin?redirect=%2Fx')).toEqual({ to: '/signin', search: {} })
    expect(signinReturningTo('/')).toEqual({ to: '/signin', search: {} })
    expect(signinReturningTo('//evil.example/x')).toEqual({ to: '/signin', search: {} })
  })
})

describe('Google sign-in comes back to the page', () => {
  function startGoogle() {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' })
    mockApi({ 'POST /v1/auth/oidc-signin': () => json(201, { auth_url: 'https://accounts.example.com/auth?state=st-1' }) })
    return assign
  }

  it('the return is kept across the trip to Google and followed after the callback', async () => {
    const assign = startGoogle()
    await renderWithProviders(<SigninForm redirect="/dashboard/acme/exports/e1" />, '/signin')
    await userEvent.click(screen.getByRole('button', { name: /Google/ }))
    await waitFor(() => expect(assign).toHaveBeenCalled())
    answerCallback(201, { scope: 'signin', email: 'jane@example.com', ...session })
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-1" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/exports/e1'))
  })

  it('with a second factor the challenge carries the return', async () => {
    startGoogle()
    await renderWithProviders(<SigninForm redirect="/dashboard/acme/team" />, '/signin')
    await userEvent.click(screen.getByRole('button', { name: /Google/ }))
    await waitFor(() => expect(sessionStorage.getItem('oidc_state')).toBe('st-1'))
    answerCallback(202, { scope: 'signin', email: 'jane@example.com', mfa_required: true, challenge: 'ch-1', methods: ['totp'] })
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-1" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin/verify'))
    expect(pendingChallenge()?.redirect).toBe('/dashboard/acme/team')
  })

  it('a return to another host is not kept', async () => {
    startGoogle()
    await renderWithProviders(<SigninForm redirect="//evil.example/x" />, '/signin')
    await userEvent.click(screen.getByRole('button', { name: /Google/ }))
    await waitFor(() => expect(sessionStorage.getItem('oidc_state')).toBe('st-1'))
    answerCallback(201, { scope: 'signin', email: 'jane@example.com', ...session })
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-1" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/testimonials'))
  })

  it('without a return a Google sign-in opens the dashboard as before', async () => {
    rememberOidcState('https://accounts.example.com/auth?state=st-1')
    answerCallback(201, { scope: 'signin', email: 'jane@example.com', ...session })
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-1" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/testimonials'))
  })
})

describe('the second factor at /signin/verify', () => {
  async function meet(redirect: string) {
    saveChallenge({ mfa_required: true, challenge: 'ch-1', methods: ['totp'], redirect })
    mockApi({ 'POST /v1/auth/signin/mfa': () => json(201, session) })
    const { router } = await renderWithProviders(<SigninVerifyPage />, '/signin/verify')
    await userEvent.type(screen.getByRole('textbox'), '123456')
    await userEvent.click(screen.getByRole('button', { name: /verify|confirm|sign in/i }))
    return router
  }

  it('goes on to the page the sign-in was to return to', async () => {
    const router = await meet('/dashboard/acme/billing/invoices')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/billing/invoices'))
  })

  it('never to another host, even from a tampered challenge', async () => {
    const router = await meet('//evil.example/x')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/testimonials'))
  })

  it('its way back to sign-in keeps the return', async () => {
    saveChallenge({ mfa_required: true, challenge: 'ch-1', methods: ['totp'], redirect: '/dashboard/acme/team' })
    await renderWithProviders(<SigninVerifyPage />, '/signin/verify')
    expect(screen.getByRole('link', { name: /sign-in|sign in/i })).toHaveAttribute(
      'href',
      '/signin?redirect=%2Fdashboard%2Facme%2Fteam',
    )
  })
})

describe('signed in already', () => {
  it('a dashboard link opens as it is', async () => {
    saveSession(session)
    mockApi({})
    const router = createAppRouter(createQueryClient(), createMemoryHistory({ initialEntries: ['/exports/e1'] }))
    await router.load().catch(() => {})
    expect(router.state.location.pathname).toBe('/dashboard/acme/exports/e1')
  })
})
