import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { accountResponseSchema } from '@/lib/api/get-account'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, json, mockApi } from '@/test/mock-api'
import { DeletionBanner } from './deletion-banner'

afterEach(() => vi.unstubAllGlobals())

const at = '2026-12-26T10:00:00Z'

function data(account: Record<string, unknown>, user: Record<string, unknown>) {
  const body = accountBody({ plan: 'PRO', start_next_period: false })
  return v.parse(accountResponseSchema, { account: { ...body.account, role: 'owner', ...account }, user: { ...body.user, ...user } })
}

describe('DeletionBanner', () => {
  it("cancels the account's deletion with the password, offering the stopped auto-renewal back (issue 35)", async () => {
    const fetch = mockApi({ 'POST /v1/accounts/a/deletion/cancel': () => json(200, {}) })
    await renderWithProviders(<DeletionBanner accountId="a" data={data({ deletion_at: at, deletion_stopped_renewal: true }, {})} />)
    // The dialog is loaded when a deletion is scheduled (the dashboard's size budget).
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel the deletion' }))
    await screen.findByRole('dialog', { name: 'Keep this account?' })
    expect(screen.getByRole('checkbox', { name: /Turn auto-renewal back on/ })).toBeChecked()
    await userEvent.type(screen.getByLabelText('Current password'), 'Secret1!')
    await userEvent.click(screen.getByRole('button', { name: 'Keep the account' }))
    await waitFor(() => expect(calls(fetch)).toContain('POST /v1/accounts/a/deletion/cancel'))
    const sent = fetch.mock.calls.find(([url]) => String(url) === '/v1/accounts/a/deletion/cancel')
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ current_password: 'Secret1!', auto_renewal: true })
  })

  it("says which account keeps the user's erasure waiting", async () => {
    mockApi({})
    await renderWithProviders(<DeletionBanner accountId="a" data={data({}, { deletion_at: at, deletion_blocked_by: 'Acme' })} />)
    expect(screen.getByTestId('deletion-banner')).toHaveTextContent('but you own Acme: transfer its ownership or delete it')
    expect(await screen.findByRole('button', { name: 'Cancel my deletion' })).toBeInTheDocument()
  })
})
