import { Suspense } from 'react'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { accountBody, json, mockApi, withRole } from '@/test/mock-api'
import { TeamPage } from './team-page'
import { TeamPagePending } from './team-page-states'

// Counts react-hook-form's useForm calls, passing them on.
const forms = vi.hoisted(() => ({ calls: 0 }))
vi.mock('react-hook-form', async (importOriginal) => {
  const original = await importOriginal<typeof import('react-hook-form')>()
  return {
    ...original,
    useForm: ((...args: Parameters<typeof original.useForm>) => {
      forms.calls += 1
      return original.useForm(...args)
    }) as typeof original.useForm,
  }
})

const member = (user_id: string, email: string, role: string) => ({
  user_id,
  email,
  firstname: '',
  lastname: '',
  role,
  joined_at: '2026-03-01T10:00:00Z',
})

describe('TeamPage forms', () => {
  // The invite and ownership dialogs' forms cost a phone's first render
  // react-hook-form's first call (issue 37 item 9): they mount when opened.
  it('runs no form while its dialogs are closed, and a fresh one when a dialog opens', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, withRole(accountBody(), 'owner')),
      'GET /v1/accounts/a/members': () =>
        json(200, {
          members: [member('u1', 'jane@example.com', 'owner'), member('u2', 'bob@example.com', 'member')],
          seats: { used: 2, limit: 10 },
        }),
      'GET /v1/accounts/a/invitations': () => json(200, { invitations: [] }),
    })
    await renderWithProviders(
      <Suspense fallback={<TeamPagePending />}>
        <TeamPage accountId="a" />
      </Suspense>,
      '/dashboard/a/team',
    )
    await screen.findByTestId('seats')
    expect(screen.getByRole('button', { name: 'Transfer ownership' })).toBeEnabled()
    expect(forms.calls).toBe(0)

    await userEvent.click(screen.getByRole('button', { name: 'Invite a member' }))
    expect(await screen.findByRole('dialog', { name: 'Invite a member' })).toBeInTheDocument()
    expect(forms.calls).toBeGreaterThan(0)
  })
})
