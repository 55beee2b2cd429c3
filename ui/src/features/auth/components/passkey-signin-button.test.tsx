import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorPopup } from '@/components/error-popup'
import { dismissError } from '@/lib/error-store'
import { getToken } from '@/lib/session'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { requestOptionsBody, stubPasskeys, unstubPasskeys } from '@/test/webauthn'
import { PasskeySigninButton } from './passkey-signin-button'

afterEach(() => {
  unstubPasskeys()
  vi.unstubAllGlobals()
  act(() => dismissError())
})

const session = { token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'acc-1' }

describe('PasskeySigninButton', () => {
  it('is not shown where the browser has no WebAuthn', async () => {
    mockApi({})
    await renderWithProviders(<PasskeySigninButton />, '/signin')
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull()
  })

  it('asks the browser for a passkey, signs in and opens the dashboard', async () => {
    const creds = stubPasskeys()
    const fetch = mockApi({
      'POST /v1/auth/passkey/options': () => json(200, requestOptionsBody),
      'POST /v1/auth/passkey': () => json(201, session),
    })
    const { router } = await renderWithProviders(<PasskeySigninButton />, '/signin')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/acc-1/testimonials'))
    expect(creds.get).toHaveBeenCalledTimes(1)
    expect(calls(fetch)).toEqual(['POST /v1/auth/passkey/options', 'POST /v1/auth/passkey'])
    const body = JSON.parse(String(fetch.mock.calls[1][1]?.body)) as Record<string, unknown>
    expect(body).toMatchObject({ ceremony_id: 'cer-2', credential: { id: 'AQID', response: { signature: '-_8' } } })
    expect(getToken()).toBe('tok')
  })

  it('says a refused passkey in an alert, with no popup and no session', async () => {
    stubPasskeys()
    mockApi({
      'POST /v1/auth/passkey/options': () => json(200, requestOptionsBody),
      'POST /v1/auth/passkey': () => json(401, { error: { status: 401, code: 'unauthorized', message: 'Unauthorized' } }),
    })
    await renderWithProviders(
      <>
        <PasskeySigninButton />
        <ErrorPopup />
      </>,
      '/signin',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('This passkey was not accepted.')
    expect(screen.getAllByRole('alert')).toHaveLength(1)
    expect(getToken()).toBeNull()
  })

  it('says a cancelled ceremony without calling the sign-in', async () => {
    stubPasskeys(undefined, async () => Promise.reject(new DOMException('no', 'NotAllowedError')))
    const fetch = mockApi({ 'POST /v1/auth/passkey/options': () => json(200, requestOptionsBody) })
    await renderWithProviders(<PasskeySigninButton />, '/signin')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('No passkey was used')
    expect(calls(fetch)).toEqual(['POST /v1/auth/passkey/options'])
  })
})
