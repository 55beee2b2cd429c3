import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { json, mockApi } from '@/test/mock-api'
import { getToken } from '@/lib/session'
import { requestOptionsBody, stubPasskeys, unstubPasskeys } from '@/test/webauthn'
import { saveChallenge } from '../api/signin-mfa'
import { SigninVerifyPage } from './signin-verify-page'

afterEach(() => {
  unstubPasskeys()
  vi.unstubAllGlobals()
  sessionStorage.clear()
})

const bodyOf = (fetch: ReturnType<typeof mockApi>, call: string) => {
  const found = fetch.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url}` === call).at(-1)
  return JSON.parse(String(found?.[1]?.body)) as Record<string, unknown>
}
const error = (status: number, code: string) => json(status, { error: { status, code, message: 'no' } })

describe('SigninVerifyPage', () => {
  it('meets the challenge with the code (numeric one-time-code field), or a recovery code, and signs in', async () => {
    saveChallenge({ mfa_required: true, challenge: 'ch-1', methods: ['totp', 'recovery_code'] })
    let tries = 0
    const fetch = mockApi({
      'POST /v1/auth/signin/mfa': () =>
        ++tries === 1
          ? error(401, 'unauthorized')
          : json(201, { token: 'tok-2fa', token_expiry: '2099-01-01T00:00:00Z', account_id: 'acc' }),
    })
    await renderWithProviders(<SigninVerifyPage />, '/signin/verify')
    const code = screen.getByLabelText('Authentication code')
    expect(code).toHaveAttribute('autocomplete', 'one-time-code')
    expect(code).toHaveAttribute('inputmode', 'numeric')
    await userEvent.type(code, '111111')
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('That code did not work')
    expect(getToken()).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }))
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcd-efgh-jkmn')
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(getToken()).toBe('tok-2fa'))
    expect(bodyOf(fetch, 'POST /v1/auth/signin/mfa')).toEqual({ challenge: 'ch-1', recovery_code: 'abcd-efgh-jkmn' })
  })

  it('meets the challenge with a passkey: no code field without an app, the options for this challenge, webauthn posted', async () => {
    saveChallenge({ mfa_required: true, challenge: 'ch-2', methods: ['recovery_code', 'webauthn'] })
    const creds = stubPasskeys()
    let cancelled = true
    const fetch = mockApi({
      'POST /v1/auth/passkey/options': () => json(200, requestOptionsBody),
      'POST /v1/auth/signin/mfa': () => json(201, { token: 'tok-pk', token_expiry: '2099-01-01T00:00:00Z', account_id: 'acc' }),
    })
    creds.get.mockImplementationOnce(async () => {
      if (cancelled) throw new DOMException('no', 'NotAllowedError')
    })
    await renderWithProviders(<SigninVerifyPage />, '/signin/verify')
    // No authenticator app: a recovery code is what is typed, with no switch to a code.
    expect(screen.queryByLabelText('Authentication code')).toBeNull()
    expect(screen.getByLabelText('Recovery code')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Use a recovery code' })).toBeNull()
    const passkey = screen.getByRole('button', { name: 'Use a passkey' })
    await userEvent.click(passkey)
    expect(await screen.findByRole('alert')).toHaveTextContent('No passkey was used')
    expect(getToken()).toBeNull()
    cancelled = false
    await userEvent.click(passkey)
    await waitFor(() => expect(getToken()).toBe('tok-pk'))
    expect(bodyOf(fetch, 'POST /v1/auth/passkey/options')).toEqual({ challenge: 'ch-2' })
    expect(bodyOf(fetch, 'POST /v1/auth/signin/mfa')).toMatchObject({
      challenge: 'ch-2',
      webauthn: { ceremony_id: requestOptionsBody.ceremony_id, credential: { id: 'AQID' } },
    })
  })

  it('without a pending challenge, sends back to sign in', async () => {
    await renderWithProviders(<SigninVerifyPage />, '/signin/verify')
    expect(screen.getByRole('alert')).toHaveTextContent('This sign-in has expired')
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/signin')
  })
})

