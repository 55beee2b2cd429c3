import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissError, getReportedError } from '@/lib/error-store'
import { getStoredAccountId, getToken } from '@/lib/session'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { rememberOidcInvitation, rememberOidcState } from '@/lib/oidc-state'
import { safeRedirect } from '../api/session-schema'
import { AuthCallbackPage } from './auth-callback-page'
import { InvitationPage } from './invitation-page'
import { SigninForm } from './signin-form'

afterEach(() => {
  sessionStorage.clear()
  act(() => dismissError())
})

const invitation = {
  account_name: 'Acme',
  inviter: 'Jane Doe',
  email: 'bob@example.com',
  role: 'member',
  expires_at: '2026-03-08T10:00:00Z',
}
const error = (status: number, code: string, fields?: Record<string, string>) =>
  json(status, { error: { status, code, message: code, fields } })
const session = { token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'acme' }

function signIn(email: string) {
  localStorage.setItem('auth_token', 'old')
  localStorage.setItem('auth_token_expiry', '2099-01-01T00:00:00Z')
  localStorage.setItem('account_id', 'own')
  localStorage.setItem('auth_email', email)
}

const bodyOf = (fetch: ReturnType<typeof mockApi>, call: string) => {
  const found = fetch.mock.calls.find(([url, init]) => `${init?.method ?? 'GET'} ${url}` === call)
  return JSON.parse(String(found?.[1]?.body)) as Record<string, unknown>
}

function render(routes: Parameters<typeof mockApi>[0]) {
  const fetch = mockApi({ 'GET /v1/invitations/tok': () => json(200, invitation), ...routes })
  return { fetch, rendered: renderWithProviders(<InvitationPage token="tok" />, '/invitation?token=tok') }
}

async function fillSignup() {
  await userEvent.type(screen.getByLabelText('First name'), 'Bob')
  await userEvent.type(screen.getByLabelText('Last name'), 'Builder')
  await userEvent.type(screen.getByLabelText('Password'), 'Secret12!')
  await userEvent.click(screen.getByRole('checkbox', { name: /Terms of Use/ }))
  await userEvent.click(screen.getByRole('button', { name: 'Sign up' }))
}

describe('InvitationPage: signed out', () => {
  it('shows the account, inviter, role and expiry; signs up with the locked address and lands in the account', async () => {
    const { fetch, rendered } = render({ 'POST /v1/auth/signup': () => json(201, { email: 'bob@example.com', ...session }) })
    const { router } = await rendered
    expect(await screen.findByRole('heading', { level: 1, name: 'Join Acme' })).toBeInTheDocument()
    expect(screen.getByText(/invited you to join/)).toHaveTextContent('Jane Doe invited you to join Acme on Kudos as a member.')
    expect(screen.getByTestId('invitation-details')).toHaveTextContent('This invitation is for bob@example.com and is valid until 8 March 2026.')
    const email = screen.getByLabelText('E-mail')
    expect(email).toHaveValue('bob@example.com')
    expect(email).toHaveAttribute('readonly')
    expect(email).toHaveAccessibleDescription('The address the invitation was sent to.')
    expect(screen.getByRole('link', { name: 'Sign in to accept' })).toHaveAttribute(
      'href',
      '/signin?redirect=%2Finvitation%3Ftoken%3Dtok',
    )
    await fillSignup()
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/testimonials'))
    expect(bodyOf(fetch, 'POST /v1/auth/signup')).toMatchObject({
      email: 'bob@example.com',
      invitation_token: 'tok',
      firstname: 'Bob',
      opt_in_terms_of_use: true,
    })
    expect(getToken()).toBe('tok')
    expect(getStoredAccountId()).toBe('acme')
  })

  it('an address that has a user already (409 conflict) is told to sign in instead, without a popup', async () => {
    const { rendered } = render({ 'POST /v1/auth/signup': () => error(409, 'conflict') })
    await rendered
    await screen.findByRole('heading', { level: 1, name: 'Join Acme' })
    await fillSignup()
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account with this address already exists. Sign in to accept the invitation.',
    )
    expect(getReportedError()).toBeNull()
    expect(getToken()).toBeNull()
  })

  it('a full team at sign-up (409 seat_limit) says so', async () => {
    const { rendered } = render({ 'POST /v1/auth/signup': () => error(409, 'seat_limit') })
    await rendered
    await screen.findByRole('heading', { level: 1, name: 'Join Acme' })
    await fillSignup()
    expect(await screen.findByRole('alert')).toHaveTextContent('The team is full; ask the person who invited you to free a seat.')
  })

  it('Continue with Google sends the invitation token and remembers it for the callback', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign, origin: 'http://localhost:3000' })
    const { fetch, rendered } = render({
      'POST /v1/auth/oidc-signup': () => json(201, { auth_url: 'https://accounts.example.com/auth?state=st-9' }),
    })
    await rendered
    await screen.findByRole('heading', { level: 1, name: 'Join Acme' })
    await userEvent.click(screen.getByRole('checkbox', { name: /Terms of Use/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Continue with Google' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example.com/auth?state=st-9'))
    expect(bodyOf(fetch, 'POST /v1/auth/oidc-signup')).toMatchObject({ invitation_token: 'tok', opt_in_terms_of_use: true })
    expect(sessionStorage.getItem('oidc_invitation')).toBe('tok')
  })

  it('404: used, revoked or expired — no longer valid', async () => {
    const { rendered } = render({ 'GET /v1/invitations/tok': () => error(404, 'not_found') })
    await rendered
    expect(await screen.findByRole('heading', { level: 1, name: 'This invitation is no longer valid' })).toBeInTheDocument()
    expect(screen.queryByLabelText('E-mail')).toBeNull()
  })

  it('no token at all: no longer valid, without asking the api', async () => {
    const fetch = mockApi({})
    await renderWithProviders(<InvitationPage />, '/invitation')
    expect(await screen.findByRole('heading', { level: 1, name: 'This invitation is no longer valid' })).toBeInTheDocument()
    expect(calls(fetch)).toEqual([])
  })
})

describe('InvitationPage: signed in', () => {
  it('as the invited address: Accept joins, stores the account and opens it', async () => {
    signIn('Bob@example.com')
    const { fetch, rendered } = render({ 'POST /v1/invitations/tok/accept': () => json(200, { account_id: 'acme' }) })
    const { router } = await rendered
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/testimonials'))
    expect(calls(fetch)).toContain('POST /v1/invitations/tok/accept')
    expect(getStoredAccountId()).toBe('acme')
    expect(screen.queryByLabelText('E-mail')).toBeNull()
  })

  it('as another address: the mismatch screen, and Sign out and continue shows the signed-out choices', async () => {
    signIn('ann@example.com')
    const { fetch, rendered } = render({ 'POST /v1/auth/signout': () => new Response(null, { status: 204 }) })
    await rendered
    const mismatch = await screen.findByTestId('invitation-mismatch')
    expect(within(mismatch).getByRole('alert')).toHaveTextContent(
      'This invitation is for bob@example.com. You are signed in as ann@example.com.',
    )
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Sign out and continue' }))
    await waitFor(() => expect(calls(fetch)).toContain('POST /v1/auth/signout'))
    expect(await screen.findByLabelText('E-mail')).toHaveValue('bob@example.com')
    expect(getToken()).toBeNull()
  })

  it('403 invitation_email_mismatch from the api (address not known here): the mismatch screen', async () => {
    signIn('')
    const { rendered } = render({ 'POST /v1/invitations/tok/accept': () => error(403, 'invitation_email_mismatch') })
    await rendered
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByText('This invitation is for bob@example.com, and you are signed in with another address.')).toBeInTheDocument()
    expect(getReportedError()).toBeNull()
  })

  it('409 seat_limit: the team is full, ask the inviter', async () => {
    signIn('bob@example.com')
    const { rendered } = render({ 'POST /v1/invitations/tok/accept': () => error(409, 'seat_limit') })
    await rendered
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The team is full; ask Jane Doe to free a seat.')
    expect(getReportedError()).toBeNull()
  })
})

describe('InvitationPage: another refusal on accept', () => {
  it('is said on the page (no popup shows it)', async () => {
    signIn('bob@example.com')
    const { rendered } = render({ 'POST /v1/invitations/tok/accept': () => error(403, 'forbidden') })
    await rendered
    await userEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to do this.')
  })
})

describe('safeRedirect: only same-origin paths', () => {
  it.each([
    ['/invitation?token=x', '/invitation?token=x'],
    ['/dashboard/a/team', '/dashboard/a/team'],
  ])('%s is followed', (path, expected) => expect(safeRedirect(path)).toBe(expected))

  it.each(['https://evil.example', '//evil.example/x', '/\\evil.example', '/\t/evil.example', 'invitation', '', undefined])(
    '%s is not',
    (path) => expect(safeRedirect(path)).toBeNull(),
  )
})

describe('SigninForm with ?redirect=', () => {
  async function signInWith(redirect: string) {
    mockApi({ 'POST /v1/auth/signin': () => json(201, session) })
    const { router } = await renderWithProviders(<SigninForm redirect={redirect} />, '/signin')
    await userEvent.type(screen.getByLabelText('E-mail'), 'bob@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'Secret12!')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    return router
  }

  it('comes back to the invitation after signing in', async () => {
    const router = await signInWith('/invitation?token=tok')
    await waitFor(() => expect(router.state.location.pathname).toBe('/invitation'))
    expect(router.state.location.search).toEqual({ token: 'tok' })
  })

  it('ignores a redirect to another host', async () => {
    const router = await signInWith('//evil.example/x')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/testimonials'))
  })
})

describe('AuthCallbackPage from an invitation', () => {
  const callback = (scope: string) =>
    vi.fn(async (url: string) =>
      url.startsWith('/v1/auth/callback') ? json(201, { scope, email: 'bob@example.com', ...session }) : json(404, {}),
    )

  it('a Google sign-up that joined is signed in and opens the account', async () => {
    rememberOidcState('https://accounts.example.com/auth?state=st-1')
    rememberOidcInvitation('tok')
    vi.stubGlobal('fetch', callback('signup'))
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-1" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acme/testimonials'))
    expect(getToken()).toBe('tok')
    expect(sessionStorage.getItem('oidc_invitation')).toBeNull()
  })

  it('a Google user who had an account already goes back to the invitation, signed in, to accept it', async () => {
    rememberOidcState('https://accounts.example.com/auth?state=st-1')
    rememberOidcInvitation('tok')
    vi.stubGlobal('fetch', callback('signin'))
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-1" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/invitation'))
    expect(router.state.location.search).toEqual({ token: 'tok' })
    expect(getToken()).toBe('tok')
  })

  it('a plain Google sign-up is still not signed in (it must activate first)', async () => {
    rememberOidcState('https://accounts.example.com/auth?state=st-1')
    vi.stubGlobal('fetch', callback('signup'))
    const { router } = await renderWithProviders(<AuthCallbackPage code="c" state="st-1" />, '/auth/callback')
    await waitFor(() => expect(router.state.location.pathname).toBe('/registered'))
    expect(getToken()).toBeNull()
  })
})
