import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { creationOptionsBody, stubPasskeys, unstubPasskeys } from '@/test/webauthn'
import { formatDate } from '@/lib/format'
import { PasskeysCard } from './passkeys-card'

afterEach(() => {
  unstubPasskeys()
  vi.unstubAllGlobals()
})

const bodyOf = (fetch: ReturnType<typeof mockApi>, call: string) => {
  const found = fetch.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url}` === call).at(-1)
  return JSON.parse(String(found?.[1]?.body)) as Record<string, unknown>
}

const laptop = { id: 'p1', name: 'Laptop', created_at: '2026-11-01T10:00:00Z', last_used_at: '2026-11-20T10:00:00Z' }
const phone = { id: 'p2', name: 'Phone', created_at: '2026-11-02T10:00:00Z', last_used_at: null }
const unprocessable = (fields: Record<string, string>) =>
  json(422, { error: { status: 422, code: 'unprocessable_entity', message: 'Unprocessable entity', fields } })

describe('PasskeysCard', () => {
  it('lists the passkeys with when they were added and last used, or says there are none', async () => {
    stubPasskeys()
    mockApi({ 'GET /v1/users/me/passkeys': () => json(200, { items: [laptop, phone] }) })
    await renderWithProviders(<PasskeysCard socialLogin={false} />)
    const list = await screen.findByRole('list', { name: 'Your passkeys' })
    const items = within(list).getAllByRole('listitem')
    expect(items[0]).toHaveTextContent('Laptop')
    expect(items[0]).toHaveTextContent(`Added ${formatDate(laptop.created_at)}, last used ${formatDate(laptop.last_used_at)}`)
    expect(items[1]).toHaveTextContent('never used')
    expect(screen.getByRole('button', { name: 'Remove Phone' })).toBeInTheDocument()
  })

  it('shows the empty state, and no add button where the browser has no passkeys', async () => {
    mockApi({ 'GET /v1/users/me/passkeys': () => json(200, { items: [] }) })
    await renderWithProviders(<PasskeysCard socialLogin={false} />)
    expect(await screen.findByText('You have no passkey yet.')).toBeInTheDocument()
    expect(screen.getByText('This browser cannot create passkeys.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull()
  })

  it('adds a passkey: name and password first, then the browser creates it, then it is registered', async () => {
    const creds = stubPasskeys()
    let items: unknown[] = []
    const fetch = mockApi({
      'GET /v1/users/me/passkeys': () => json(200, { items }),
      'POST /v1/users/me/passkeys/options': () => json(200, creationOptionsBody),
      'POST /v1/users/me/passkeys': () => {
        items = [laptop]
        return json(201, laptop)
      },
    })
    await renderWithProviders(<PasskeysCard socialLogin={false} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the passkey' }))
    expect(await within(dialog).findByText('*field required')).toBeInTheDocument()
    expect(within(dialog).getByText('*password is required')).toBeInTheDocument()
    expect(calls(fetch)).not.toContain('POST /v1/users/me/passkeys/options')
    await userEvent.type(within(dialog).getByLabelText('Name'), ' Laptop ')
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the passkey' }))
    await waitFor(() => expect(calls(fetch)).toContain('POST /v1/users/me/passkeys'))
    expect(bodyOf(fetch, 'POST /v1/users/me/passkeys/options')).toEqual({ current_password: 'Secret1!' })
    expect(creds.create).toHaveBeenCalledTimes(1)
    const registered = bodyOf(fetch, 'POST /v1/users/me/passkeys')
    expect(registered).toMatchObject({ ceremony_id: 'cer-1', name: 'Laptop', credential: { id: 'AQID', rawId: 'AQID' } })
    expect(await screen.findByRole('status')).toHaveTextContent('Passkey “Laptop” added.')
    await waitFor(() => expect(dialog).not.toBeInTheDocument())
    expect(await screen.findByRole('list', { name: 'Your passkeys' })).toHaveTextContent('Laptop')
  })

  it('shows the recovery codes that come with the first passkey, once', async () => {
    stubPasskeys()
    const codes = ['aaaa-bbbb-cccc', 'dddd-eeee-ffff']
    mockApi({
      'GET /v1/users/me/passkeys': () => json(200, { items: [] }),
      'POST /v1/users/me/passkeys/options': () => json(200, creationOptionsBody),
      'POST /v1/users/me/passkeys': () => json(201, { ...laptop, recovery_codes: codes }),
    })
    await renderWithProviders(<PasskeysCard socialLogin={false} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' })
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Laptop')
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the passkey' }))
    const list = await screen.findByRole('list', { name: 'Your recovery codes' })
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codes)
    expect(screen.getByText(/It is your first second factor/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /I have saved them/ }))
    expect(screen.queryByRole('list', { name: 'Your recovery codes' })).toBeNull()
  })

  it('says when the browser ceremony is cancelled or the password is wrong, and keeps the dialog open', async () => {
    stubPasskeys(async () => Promise.reject(new DOMException('no', 'NotAllowedError')))
    let wrong = true
    const fetch = mockApi({
      'GET /v1/users/me/passkeys': () => json(200, { items: [] }),
      'POST /v1/users/me/passkeys/options': () => (wrong ? unprocessable({ current_password: 'wrong_password' }) : json(200, creationOptionsBody)),
    })
    await renderWithProviders(<PasskeysCard socialLogin={false} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Laptop')
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'Guess12!')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the passkey' }))
    expect(await within(dialog).findByText('*the current password is wrong')).toBeInTheDocument()
    wrong = false
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the passkey' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('No passkey was used: the request was cancelled or timed out.')
    expect(calls(fetch)).not.toContain('POST /v1/users/me/passkeys')
  })

  it('a user without a password is asked to sign in with Google again (step-up)', async () => {
    stubPasskeys()
    const fetch = mockApi({
      'GET /v1/users/me/passkeys': () => json(200, { items: [] }),
      'POST /v1/users/me/passkeys/options': () =>
        json(403, { error: { status: 403, code: 'reauthentication_required', message: 'please confirm it is you' } }),
    })
    await renderWithProviders(<PasskeysCard socialLogin />)
    await userEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByLabelText('Current password (if you have one)')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Laptop')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create the passkey' }))
    expect(await within(dialog).findByRole('button', { name: 'Confirm with Google' })).toBeInTheDocument()
    expect(bodyOf(fetch, 'POST /v1/users/me/passkeys/options')).toEqual({})
  })

  it('renames a passkey in place; Escape cancels', async () => {
    stubPasskeys()
    const fetch = mockApi({
      'GET /v1/users/me/passkeys': () => json(200, { items: [laptop] }),
      'PATCH /v1/users/me/passkeys/p1': () => json(200, { ...laptop, name: 'Work laptop' }),
    })
    await renderWithProviders(<PasskeysCard socialLogin={false} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Laptop' }))
    const input = screen.getByLabelText('New name for Laptop')
    expect(input).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByLabelText('New name for Laptop')).toBeNull()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Rename Laptop' })).toHaveFocus())
    await userEvent.click(screen.getByRole('button', { name: 'Rename Laptop' }))
    await userEvent.clear(screen.getByLabelText('New name for Laptop'))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('*field required')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('New name for Laptop'), 'Work laptop{Enter}')
    await waitFor(() => expect(calls(fetch)).toContain('PATCH /v1/users/me/passkeys/p1'))
    expect(bodyOf(fetch, 'PATCH /v1/users/me/passkeys/p1')).toEqual({ name: 'Work laptop' })
    expect(await screen.findByRole('status')).toHaveTextContent('Passkey renamed to “Work laptop”.')
  })

  it('removes a passkey after a confirmation with the password', async () => {
    stubPasskeys()
    const fetch = mockApi({
      'GET /v1/users/me/passkeys': () => json(200, { items: [laptop] }),
      'DELETE /v1/users/me/passkeys/p1': () => new Response(null, { status: 204 }),
    })
    await renderWithProviders(<PasskeysCard socialLogin={false} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Laptop' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' })
    expect(dialog).toHaveTextContent('“Laptop” will no longer sign you in.')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }))
    await waitFor(() => expect(dialog).not.toBeInTheDocument())
    expect(calls(fetch)).not.toContain('DELETE /v1/users/me/passkeys/p1')
    await userEvent.click(screen.getByRole('button', { name: 'Remove Laptop' }))
    const again = await screen.findByRole('dialog', { name: 'Remove this passkey?' })
    await userEvent.type(within(again).getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(within(again).getByRole('button', { name: 'Remove the passkey' }))
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/users/me/passkeys/p1'))
    expect(bodyOf(fetch, 'DELETE /v1/users/me/passkeys/p1')).toEqual({ current_password: 'Secret1!' })
    expect(await screen.findByRole('status')).toHaveTextContent('Passkey “Laptop” removed.')
  })
})
