import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useMutation } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { apiRequest, setStepUpHandler } from '@/lib/api-client'
import { askSecondFactor, closeSecondFactor, useSecondFactorAsked } from '@/lib/second-factor'
import { TwoFactorCard } from './two-factor-card'
import { SecondFactorDialog } from './second-factor-dialog'

vi.mock('qrcode', () => ({ toDataURL: async () => 'data:image/png;base64,AAAA' }))

afterEach(() => {
  vi.unstubAllGlobals()
  sessionStorage.clear()
  act(() => closeSecondFactor(false))
})

const bodyOf = (fetch: ReturnType<typeof mockApi>, call: string) => {
  const found = fetch.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url}` === call).at(-1)
  return JSON.parse(String(found?.[1]?.body)) as Record<string, unknown>
}
const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jk${String(i).padStart(2, '2')}`)
const error = (status: number, code: string, fields?: Record<string, string>) =>
  json(status, { error: { status, code, message: 'no', fields } })

describe('TwoFactorCard', () => {
  it('asks for the current password when the session signed in long ago (422), then enrols with it', async () => {
    const fetch = mockApi({
      'GET /v1/users/me/mfa': () => json(200, { totp: false, recovery_codes_left: 0, passkeys: 0 }),
      'POST /v1/users/me/mfa/totp': (init) => {
        const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, string>) : {}
        if (!body.current_password) return error(422, 'unprocessable_entity', { current_password: 'field_required' })
        if (body.current_password !== 'Secret1!') return error(422, 'unprocessable_entity', { current_password: 'wrong_password' })
        return json(201, { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Kudos:a?secret=JBSWY3DPEHPK3PXP' })
      },
    })
    await renderWithProviders(<TwoFactorCard />)
    const setUp = await screen.findByRole('button', { name: 'Set up an authenticator app' })
    await userEvent.click(setUp)
    const password = await screen.findByLabelText('Current password')
    expect(screen.getByText(/enter your current password to set up an app/)).toBeInTheDocument()
    await userEvent.type(password, 'Guess12!')
    await userEvent.click(setUp)
    expect(await screen.findByText('That password is not right. Try again.')).toBeInTheDocument()
    expect(password).toHaveAttribute('aria-invalid', 'true')
    await userEvent.clear(password)
    await userEvent.type(password, 'Secret1!')
    await userEvent.click(setUp)
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP')
    expect(bodyOf(fetch, 'POST /v1/users/me/mfa/totp')).toEqual({ current_password: 'Secret1!' })
  })

  it('enrols: QR code and key, a wrong code said aloud, then the recovery codes once', async () => {
    let on = false
    let confirmTries = 0
    const fetch = mockApi({
      'GET /v1/users/me/mfa': () => json(200, { totp: on, recovery_codes_left: on ? 10 : 0, passkeys: 0 }),
      'POST /v1/users/me/mfa/totp': () => json(201, { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Kudos:a?secret=JBSWY3DPEHPK3PXP' }),
      'POST /v1/users/me/mfa/totp/confirm': () => {
        confirmTries++
        if (confirmTries === 1) return error(422, 'unprocessable_entity', { code: 'invalid_value' })
        on = true
        return json(200, { recovery_codes: codes })
      },
    })
    await renderWithProviders(<TwoFactorCard />)
    await userEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }))
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP')
    // Focus follows to the new content's heading, not the top of the page (issue 37).
    expect(screen.getByRole('heading', { name: 'Add Kudos to your authenticator app' })).toHaveFocus()
    expect(await screen.findByRole('img', { name: 'QR code to add Kudos to your authenticator app' })).toBeInTheDocument()
    const field = screen.getByLabelText('6-digit code from the app')
    expect(field).toHaveAttribute('autocomplete', 'one-time-code')
    await userEvent.type(field, '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('That code did not work')
    await userEvent.clear(field)
    await userEvent.type(field, '654321')
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText(codes[0])).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Your recovery codes' })).toHaveFocus()
    expect(bodyOf(fetch, 'POST /v1/users/me/mfa/totp/confirm')).toEqual({ code: '654321' })
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }))
    expect(await screen.findByText(/On: an authenticator app is set up/)).toBeInTheDocument()
    expect(screen.queryByText(codes[0])).not.toBeInTheDocument()
  })

  it('turns off only after confirming with the current password', async () => {
    const fetch = mockApi({
      'GET /v1/users/me/mfa': () => json(200, { totp: true, recovery_codes_left: 7, passkeys: 0 }),
      'DELETE /v1/users/me/mfa/totp': () => new Response(null, { status: 204 }),
    })
    await renderWithProviders(<TwoFactorCard />)
    expect(await screen.findByText(/7 unused recovery codes left/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }))
    const dialog = await screen.findByRole('alertdialog')
    expect(calls(fetch)).not.toContain('DELETE /v1/users/me/mfa/totp')
    await userEvent.type(screen.getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }))
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/users/me/mfa/totp'))
    expect(bodyOf(fetch, 'DELETE /v1/users/me/mfa/totp')).toEqual({ current_password: 'Secret1!' })
  })

  it('new recovery codes: the dialog closes and focus moves to the codes\' heading, not back to its button (issue 37)', async () => {
    mockApi({
      'GET /v1/users/me/mfa': () => json(200, { totp: true, recovery_codes_left: 2, passkeys: 0 }),
      'POST /v1/users/me/mfa/recovery-codes': () => json(201, { recovery_codes: codes }),
    })
    await renderWithProviders(<TwoFactorCard />)
    await userEvent.click(await screen.findByRole('button', { name: 'Make new recovery codes' }))
    const dialog = await screen.findByRole('alertdialog')
    await userEvent.type(screen.getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make new recovery codes' }))
    const heading = await screen.findByRole('heading', { name: 'Your recovery codes' })
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    // Radix gives focus back to the trigger a moment after the dialog goes: wait past it.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(heading).toHaveFocus()
  })
})

/** A change that the server refuses with 403 second_factor_required until verified. */
function SensitiveChange() {
  const asked = useSecondFactorAsked()
  const change = useMutation({
    mutationFn: () => apiRequest('/v1/accounts/a/user', { method: 'PATCH', auth: true, body: { password: 'x' } }),
  })
  return (
    <>
      <button onClick={() => change.mutate()}>Change</button>
      <span>{change.isSuccess ? 'changed' : ''}</span>
      {asked ? <SecondFactorDialog /> : null}
    </>
  )
}

describe('SecondFactorDialog (step-up)', () => {
  afterEach(() => setStepUpHandler(async () => false))

  it('asks for the code on 403 second_factor_required, verifies, then sends the change again for its caller', async () => {
    setStepUpHandler(askSecondFactor)
    let verified = false
    const fetch = mockApi({
      'PATCH /v1/accounts/a/user': () => (verified ? json(200, {}) : error(403, 'second_factor_required')),
      'POST /v1/users/me/mfa/verify': (init) => {
        if (JSON.parse(String(init?.body)).code !== '222222') return error(422, 'unprocessable_entity', { code: 'invalid_value' })
        verified = true
        return new Response(null, { status: 204 })
      },
    })
    await renderWithProviders(<SensitiveChange />)
    await userEvent.click(screen.getByRole('button', { name: 'Change' }))
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' })
    await userEvent.type(within(dialog).getByLabelText('Authentication code'), '000000')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That code did not work')
    await userEvent.clear(within(dialog).getByLabelText('Authentication code'))
    await userEvent.type(within(dialog).getByLabelText('Authentication code'), '222222')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('changed')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(calls(fetch).filter((c) => c === 'PATCH /v1/accounts/a/user')).toHaveLength(2)
  })
})

describe('SecondFactorDialog closed', () => {
  afterEach(() => setStepUpHandler(async () => false))

  it('gives the caller the 403 and sends nothing again', async () => {
    setStepUpHandler(askSecondFactor)
    const fetch = mockApi({ 'PATCH /v1/accounts/a/user': () => error(403, 'second_factor_required') })
    await renderWithProviders(<SensitiveChange />)
    await userEvent.click(screen.getByRole('button', { name: 'Change' }))
    await screen.findByRole('dialog', { name: 'Confirm it is you' })
    await userEvent.click(screen.getAllByRole('button', { name: 'Cancel' })[0])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(screen.queryByText('changed')).not.toBeInTheDocument()
    expect(calls(fetch).filter((c) => c === 'PATCH /v1/accounts/a/user')).toHaveLength(1)
  })
})
