import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { formatDateTime } from '@/lib/format'
import { DeletionCard } from './deletion-card'

afterEach(() => vi.unstubAllGlobals())

const bodyOf = (fetch: ReturnType<typeof mockApi>, call: string) => {
  const found = fetch.mock.calls.find(([url, init]) => `${init?.method ?? 'GET'} ${url}` === call)
  return JSON.parse(String(found?.[1]?.body)) as Record<string, unknown>
}

describe('DeletionCard', () => {
  it('says what deleting the account does, asks for the password, and sends it', async () => {
    const fetch = mockApi({ 'DELETE /v1/accounts/a': () => json(202, { deletion_at: '2026-12-26T10:00:00Z' }) })
    await renderWithProviders(<DeletionCard accountId="a" kind="account" deletionAt={null} socialLogin={false} />)
    expect(screen.getByText(/what was already paid is not refunded/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Delete this account' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete this account?' })
    await userEvent.click(screen.getByRole('button', { name: 'Delete the account' }))
    expect(await screen.findByText('*password is required')).toBeInTheDocument()
    expect(calls(fetch)).not.toContain('DELETE /v1/accounts/a')
    await userEvent.type(screen.getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(screen.getByRole('button', { name: 'Delete the account' }))
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/accounts/a'))
    expect(bodyOf(fetch, 'DELETE /v1/accounts/a')).toEqual({ current_password: 'Secret1!' })
    await waitFor(() => expect(dialog).not.toBeInTheDocument())
  })

  it('shows a wrong password on its field and keeps the dialog open', async () => {
    mockApi({
      'DELETE /v1/users/me': () =>
        json(422, { error: { status: 422, code: 'unprocessable_entity', message: 'Unprocessable entity', fields: { current_password: 'wrong_password' } } }),
    })
    await renderWithProviders(<DeletionCard accountId="a" kind="user" deletionAt={null} socialLogin={false} />)
    await userEvent.click(screen.getByRole('button', { name: 'Delete my user' }))
    await userEvent.type(await screen.findByLabelText('Current password'), 'Guess12!')
    await userEvent.click(screen.getByRole('button', { name: 'Delete my user' }))
    expect(await screen.findByText('*the current password is wrong')).toBeInTheDocument()
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })

  it('tells an owner why they cannot delete themself', async () => {
    mockApi({
      'DELETE /v1/users/me': () =>
        json(409, { error: { status: 409, code: 'conflict', message: 'You own Acme: transfer its ownership or delete it first' } }),
    })
    await renderWithProviders(<DeletionCard accountId="a" kind="user" deletionAt={null} socialLogin />)
    await userEvent.click(screen.getByRole('button', { name: 'Delete my user' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Delete my user' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You own an account: transfer its ownership (Team page) or delete it first.')
  })

  it('once scheduled, shows the date and cancels with the password, offering auto-renewal back', async () => {
    const fetch = mockApi({ 'POST /v1/accounts/a/deletion/cancel': () => json(200, {}) })
    await renderWithProviders(
      <DeletionCard accountId="a" kind="account" deletionAt="2026-12-26T10:00:00Z" socialLogin={false} stoppedRenewal />,
    )
    expect(screen.getByRole('status')).toHaveTextContent(formatDateTime('2026-12-26T10:00:00Z', 'en'))
    expect(screen.queryByRole('button', { name: 'Delete this account' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the deletion' }))
    const dialog = await screen.findByRole('dialog', { name: 'Keep this account?' })
    const renewal = screen.getByRole('checkbox', { name: /Turn auto-renewal back on/ })
    expect(renewal).toBeChecked()
    await userEvent.click(screen.getByRole('button', { name: 'Keep the account' }))
    expect(await screen.findByText('*password is required')).toBeInTheDocument()
    expect(calls(fetch)).not.toContain('POST /v1/accounts/a/deletion/cancel')
    await userEvent.type(screen.getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(renewal)
    await userEvent.click(screen.getByRole('button', { name: 'Keep the account' }))
    await waitFor(() => expect(calls(fetch)).toContain('POST /v1/accounts/a/deletion/cancel'))
    expect(bodyOf(fetch, 'POST /v1/accounts/a/deletion/cancel')).toEqual({ current_password: 'Secret1!', auto_renewal: false })
    await waitFor(() => expect(dialog).not.toBeInTheDocument())
  })

  it('offers no auto-renewal when the schedule stopped none', async () => {
    const fetch = mockApi({ 'POST /v1/accounts/a/deletion/cancel': () => json(200, {}) })
    await renderWithProviders(<DeletionCard accountId="a" kind="account" deletionAt="2026-12-26T10:00:00Z" socialLogin={false} />)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the deletion' }))
    await screen.findByRole('dialog', { name: 'Keep this account?' })
    expect(screen.queryByRole('checkbox')).toBeNull()
    await userEvent.type(screen.getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(screen.getByRole('button', { name: 'Keep the account' }))
    await waitFor(() => expect(calls(fetch)).toContain('POST /v1/accounts/a/deletion/cancel'))
    expect(bodyOf(fetch, 'POST /v1/accounts/a/deletion/cancel')).toEqual({ current_password: 'Secret1!', auto_renewal: false })
  })

  it('says what to do when the owner is being deleted too', async () => {
    mockApi({
      'POST /v1/accounts/a/deletion/cancel': () =>
        json(409, { error: { status: 409, code: 'conflict', message: 'Your own deletion is scheduled: cancel it first' } }),
    })
    await renderWithProviders(<DeletionCard accountId="a" kind="account" deletionAt="2026-12-26T10:00:00Z" socialLogin={false} />)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the deletion' }))
    await userEvent.type(await screen.findByLabelText('Current password'), 'Secret1!')
    await userEvent.click(screen.getByRole('button', { name: 'Keep the account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Your own deletion is scheduled: cancel it first')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })

  it("asks a Google user's cancel for a step-up", async () => {
    mockApi({
      'POST /v1/users/me/deletion/cancel': () =>
        json(403, { error: { status: 403, code: 'reauthentication_required', message: 'please confirm it is you' } }),
    })
    await renderWithProviders(<DeletionCard accountId="a" kind="user" deletionAt="2026-12-26T10:00:00Z" socialLogin />)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel my deletion' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Keep my user' }))
    expect(await screen.findByRole('button', { name: /Google/ })).toBeInTheDocument()
  })

  it('says which account keeps the erasure waiting', async () => {
    mockApi({})
    await renderWithProviders(
      <DeletionCard accountId="a" kind="user" deletionAt="2026-12-26T10:00:00Z" socialLogin={false} blockedBy="Acme" />,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('Your deletion is waiting: you own Acme.')
  })
})
