import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { browserLocation } from '@/lib/checkout'
import { PasswordCard } from './password-card'
import { SessionsCard } from './sessions-card'

afterEach(() => vi.unstubAllGlobals())

const bodyOf = (fetch: ReturnType<typeof mockApi>, call: string) => {
  const found = fetch.mock.calls.find(([url, init]) => `${init?.method ?? 'GET'} ${url}` === call)
  return JSON.parse(String(found?.[1]?.body)) as Record<string, unknown>
}

describe('PasswordCard: re-authentication', () => {
  it('asks for the current password and sends it with the new one', async () => {
    const fetch = mockApi({ 'PATCH /v1/accounts/a/user': () => json(200, {}) })
    await renderWithProviders(<PasswordCard accountId="a" />)
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findAllByText('*password is required')).toHaveLength(2) // current and new
    expect(calls(fetch)).not.toContain('PATCH /v1/accounts/a/user')
    await userEvent.type(screen.getByLabelText('Current password'), 'Secret1!')
    await userEvent.type(screen.getByLabelText('New password'), 'Changed1!')
    await userEvent.type(screen.getByLabelText('Repeat password'), 'Changed1!')
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    await waitFor(() => expect(calls(fetch)).toContain('PATCH /v1/accounts/a/user'))
    expect(bodyOf(fetch, 'PATCH /v1/accounts/a/user')).toEqual({ password: 'Changed1!', current_password: 'Secret1!' })
  })

  it('shows a wrong current password on its field', async () => {
    const fields = { current_password: 'wrong_password' }
    mockApi({
      'PATCH /v1/accounts/a/user': () =>
        json(422, { error: { status: 422, code: 'unprocessable_entity', message: 'Unprocessable entity', fields } }),
    })
    await renderWithProviders(<PasswordCard accountId="a" />)
    await userEvent.type(screen.getByLabelText('Current password'), 'Guess12!')
    await userEvent.type(screen.getByLabelText('New password'), 'Changed1!')
    await userEvent.type(screen.getByLabelText('Repeat password'), 'Changed1!')
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByText('*the current password is wrong')).toBeInTheDocument()
  })
})

describe('PasswordCard: step-up of a user without a password', () => {
  afterEach(() => {
    sessionStorage.clear()
    vi.restoreAllMocks()
  })

  it('asks to sign in with Google again, and starts that flow from this page', async () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    const authUrl = 'http://127.0.0.1:9999/oidc/authorize?state=st-up&prompt=login&max_age=300'
    const fetch = mockApi({
      'PATCH /v1/accounts/a/user': () =>
        json(403, { error: { status: 403, code: 'reauthentication_required', message: 'please confirm it is you' } }),
      'POST /v1/auth/oidc-reauth': () => json(201, { auth_url: authUrl }),
    })
    localStorage.setItem('auth_token', 'tok')
    await renderWithProviders(<PasswordCard accountId="a" socialLogin />, '/dashboard/a/settings')
    await userEvent.type(screen.getByLabelText('New password'), 'Chosen12!')
    await userEvent.type(screen.getByLabelText('Repeat password'), 'Chosen12!')
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('sign in with Google again')
    await userEvent.click(screen.getByRole('button', { name: 'Confirm with Google' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith(authUrl))
    const start = fetch.mock.calls.find(([url]) => url === '/v1/auth/oidc-reauth')?.[1]
    expect((start?.headers as Record<string, string>).Authorization).toBe('Bearer tok')
    expect(sessionStorage.getItem('oidc_state')).toBe('st-up')
    expect(sessionStorage.getItem('oidc_return_to')).toBe(window.location.pathname + window.location.search)
    localStorage.clear()
  })
})

describe('SessionsCard: signed-in devices', () => {
  it('lists the sessions and signs one out, or all others', async () => {
    const session = (id: string, user_agent: string, current = false) => ({
      id,
      user_agent,
      current,
      created_at: '2026-03-01T10:00:00Z',
      last_seen_at: '2026-03-04T10:00:00Z',
      expires_at: '2026-03-08T10:00:00Z',
    })
    const fetch = mockApi({
      'GET /v1/accounts/a/sessions': () => json(200, { sessions: [session('s1', 'Laptop', true), session('s2', 'Phone')] }),
      'DELETE /v1/accounts/a/sessions/s2': () => new Response(null, { status: 204 }),
      'DELETE /v1/accounts/a/sessions': () => new Response(null, { status: 204 }),
    })
    await renderWithProviders(<SessionsCard accountId="a" />)
    expect(await screen.findByText('Laptop')).toBeInTheDocument()
    expect(screen.getByText('This device')).toBeInTheDocument()
    expect(screen.getByText('Phone')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }))
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/accounts/a/sessions/s2'))
    await userEvent.click(screen.getByRole('button', { name: 'Sign out all other devices' }))
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/accounts/a/sessions'))
  })
})
