import { Suspense } from 'react'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, json, mockApi, withRole } from '@/test/mock-api'
import { TeamPage } from './team-page'
import { TeamPageFailed, TeamPagePending } from './team-page-states'

// jane@example.com is the signed-in user (accountBody).
const member = (user_id: string, email: string, role: string, firstname = '', lastname = '') => ({
  user_id,
  email,
  firstname,
  lastname,
  role,
  joined_at: '2026-03-01T10:00:00Z',
})
const owner = member('u1', 'jane@example.com', 'owner', 'Jane', 'Doe')
const bob = member('u2', 'bob@example.com', 'member', 'Bob', 'Builder')
const ann = member('u3', 'ann@example.com', 'admin', 'Ann', 'Admin')
const invitation = {
  id: 'i1',
  email: 'new@example.com',
  role: 'member',
  expires_at: '2026-03-08T10:00:00Z',
  created_at: '2026-03-01T10:00:00Z',
  invited_by: 'Jane Doe',
}
const error = (status: number, code: string, fields?: Record<string, string>) =>
  json(status, { error: { status, code, message: code, fields } })

function api(
  role: 'owner' | 'admin' | 'member',
  members: unknown[],
  { seats = { used: members.length + 1, limit: 10 }, invitations = [invitation] as unknown[], extra = {} } = {},
) {
  return mockApi({
    'GET /v1/accounts/a': () => json(200, withRole(accountBody(), role)),
    'GET /v1/accounts/a/members': () => json(200, { members, seats }),
    'GET /v1/accounts/a/invitations': () => json(200, { invitations }),
    ...extra,
  })
}

function render() {
  return renderWithProviders(
    <Suspense fallback={<TeamPagePending />}>
      <TeamPage accountId="a" />
    </Suspense>,
    '/dashboard/a/team',
  )
}

const bodyOf = (fetch: ReturnType<typeof mockApi>, call: string) => {
  const found = fetch.mock.calls.find(([url, init]) => `${init?.method ?? 'GET'} ${url}` === call)
  return JSON.parse(String(found?.[1]?.body)) as Record<string, unknown>
}

describe('TeamPage', () => {
  it('shows the members, the seats and the pending invitations to the owner, with the controls', async () => {
    api('owner', [owner, ann, bob])
    await render()
    expect(await screen.findByTestId('seats')).toBeInTheDocument()
    expect(screen.getByTestId('seats')).toHaveTextContent('4 of 10 seats used')
    const members = screen.getByRole('table', { name: 'Members of Acme' })
    const rows = within(members).getAllByTestId('member-row')
    expect(rows).toHaveLength(3)
    expect(rows[0]).toHaveTextContent('Jane Doe(you)jane@example.comOwner')
    // The owner's row and one's own have no controls; the others have a role select and Remove.
    expect(within(rows[0]).queryByRole('combobox')).toBeNull()
    expect(within(rows[0]).queryByRole('button')).toBeNull()
    expect(screen.getByRole('combobox', { name: 'Role of Bob Builder' })).toHaveValue('member')
    expect(screen.getByRole('combobox', { name: 'Role of Ann Admin' })).toHaveValue('admin')
    expect(screen.getByRole('button', { name: 'Remove Bob Builder' })).toBeInTheDocument()
    const invitations = await screen.findByRole('table', { name: 'Pending invitations' })
    expect(within(invitations).getByText('new@example.com')).toBeInTheDocument()
    expect(within(invitations).getByText('Jane Doe')).toBeInTheDocument()
    expect(within(invitations).getByText('08/03/26')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Resend the invitation to new@example.com' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Invite a member' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Transfer ownership' })).toBeEnabled()
    expect(screen.queryByRole('button', { name: /^Leave/ })).toBeNull()
  })

  it('a member sees the list read-only: no invite, role, remove or invitations, and may leave', async () => {
    const fetch = api('member', [{ ...owner, email: 'boss@example.com' }, { ...bob, email: 'jane@example.com' }])
    await render()
    await screen.findByTestId('seats')
    expect(screen.getAllByTestId('member-row')).toHaveLength(2)
    expect(screen.getByText('Only the account owner and admins can invite, remove or change members.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Invite a member' })).toBeNull()
    expect(screen.queryByRole('combobox')).toBeNull()
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Transfer ownership' })).toBeNull()
    expect(screen.queryByRole('table', { name: 'Pending invitations' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Leave Acme' })).toBeInTheDocument()
    expect(calls(fetch)).not.toContain('GET /v1/accounts/a/invitations')
  })

  it('an admin manages everyone but the owner and themselves', async () => {
    api('admin', [{ ...owner, email: 'boss@example.com' }, { ...ann, email: 'jane@example.com' }, bob])
    await render()
    await screen.findByTestId('seats')
    expect(screen.getAllByRole('combobox')).toHaveLength(1)
    expect(screen.getByRole('combobox', { name: 'Role of Bob Builder' })).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: /^Remove/ })).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Transfer ownership' })).toBeNull()
  })

  it('changes a role with PATCH and says so', async () => {
    const fetch = api('owner', [owner, bob], {
      extra: { 'PATCH /v1/accounts/a/members/u2': () => json(200, { user_id: 'u2', role: 'admin' }) },
    })
    await render()
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Role of Bob Builder' }), 'admin')
    await waitFor(() => expect(calls(fetch)).toContain('PATCH /v1/accounts/a/members/u2'))
    expect(bodyOf(fetch, 'PATCH /v1/accounts/a/members/u2')).toEqual({ role: 'admin' })
    expect(await screen.findByText('Bob Builder is now Admin.')).toBeInTheDocument()
  })

  it('asks before removing a member; Keep them removes nobody', async () => {
    const fetch = api('owner', [owner, bob], {
      extra: { 'DELETE /v1/accounts/a/members/u2': () => new Response(null, { status: 204 }) },
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Bob Builder' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Bob Builder?' })
    expect(dialog).toHaveTextContent('Bob Builder loses access to Acme at once.')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep them' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(calls(fetch)).not.toContain('DELETE /v1/accounts/a/members/u2')
    await userEvent.click(screen.getByRole('button', { name: 'Remove Bob Builder' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/accounts/a/members/u2'))
    expect(await screen.findByText('Bob Builder was removed from the team.')).toBeInTheDocument()
  })

  it('asks before revoking an invitation, and resends one', async () => {
    const fetch = api('owner', [owner], {
      extra: {
        'DELETE /v1/accounts/a/invitations/i1': () => new Response(null, { status: 204 }),
        'POST /v1/accounts/a/invitations/i1/resend': () => json(200, invitation),
      },
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke the invitation to new@example.com' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke the invitation to new@example.com?' })
    expect(calls(fetch)).not.toContain('DELETE /v1/accounts/a/invitations/i1')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }))
    await waitFor(() => expect(calls(fetch)).toContain('DELETE /v1/accounts/a/invitations/i1'))
    await userEvent.click(screen.getByRole('button', { name: 'Resend the invitation to new@example.com' }))
    await waitFor(() => expect(calls(fetch)).toContain('POST /v1/accounts/a/invitations/i1/resend'))
  })

  it('says so when a resend finds the team full', async () => {
    api('owner', [owner], {
      extra: { 'POST /v1/accounts/a/invitations/i1/resend': () => error(409, 'seat_limit') },
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Resend the invitation to new@example.com' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The team is full, so the invitation to new@example.com cannot be sent again.',
    )
  })

  it('alone and nothing pending: the empty state invites a colleague', async () => {
    api('owner', [owner], { invitations: [], seats: { used: 1, limit: 10 } })
    await render()
    expect(await screen.findByText('Just you so far — invite a colleague.')).toBeInTheDocument()
    expect(screen.getByText('No pending invitations.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Transfer ownership' })).toBeDisabled()
  })

  it('with every seat used, Invite is disabled and says why; the owner gets a link to the plans', async () => {
    api('owner', [owner, bob], { seats: { used: 2, limit: 2 }, invitations: [] })
    await render()
    const invite = await screen.findByRole('button', { name: 'Invite a member' })
    expect(invite).toBeDisabled()
    expect(invite).toHaveAccessibleDescription(/All 2 seats are used. Upgrade the plan or remove a member./)
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/dashboard/a/plans?for=plan_upgrade')
  })

  it('an admin of a full team gets the message without the plans link (billing is the owner’s)', async () => {
    api('admin', [owner, { ...ann, email: 'jane@example.com' }], { seats: { used: 2, limit: 2 }, invitations: [] })
    await render()
    expect(await screen.findByText(/All 2 seats are used/)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'See the plans' })).toBeNull()
  })
})

describe('InviteDialog', () => {
  async function openInvite(answer: () => Response) {
    const fetch = api('owner', [owner], { invitations: [], extra: { 'POST /v1/accounts/a/invitations': answer } })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Invite a member' }))
    const dialog = await screen.findByRole('dialog', { name: 'Invite a member' })
    return { fetch, dialog }
  }

  async function send(dialog: HTMLElement, email = 'new@example.com') {
    await userEvent.type(within(dialog).getByLabelText('E-mail'), email)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }))
  }

  it('checks the address, sends e-mail and role, closes and says so', async () => {
    const { fetch, dialog } = await openInvite(() => json(201, invitation))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }))
    expect(await within(dialog).findByText('*email is required')).toBeInTheDocument()
    await userEvent.selectOptions(within(dialog).getByLabelText('Role'), 'admin')
    await send(dialog)
    await waitFor(() => expect(calls(fetch)).toContain('POST /v1/accounts/a/invitations'))
    expect(bodyOf(fetch, 'POST /v1/accounts/a/invitations')).toEqual({ email: 'new@example.com', role: 'admin' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.getByText('Invitation sent to new@example.com.')).toBeInTheDocument()
  })

  it('409 seat_limit: the team is full', async () => {
    const { dialog } = await openInvite(() => error(409, 'seat_limit'))
    await send(dialog)
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'All seats are used. Upgrade the plan or remove a member first.',
    )
  })

  it('409 conflict already_member / already_invited: on the e-mail field', async () => {
    const { dialog } = await openInvite(() => error(409, 'conflict', { email: 'already_member' }))
    await send(dialog)
    expect(await within(dialog).findByText('*this person is already a member of the team')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true')
  })

  it('409 already_invited points to resending', async () => {
    const { dialog } = await openInvite(() => error(409, 'conflict', { email: 'already_invited' }))
    await send(dialog)
    expect(await within(dialog).findByText(/already has a pending invitation: resend it from the list/)).toBeInTheDocument()
  })

  it('429: too many invitations', async () => {
    const { dialog } = await openInvite(() => error(429, 'too_many_requests'))
    await send(dialog)
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You sent many invitations in a short time.')
  })

  it('422 invalid_email from the server: on the field', async () => {
    const { dialog } = await openInvite(() => error(422, 'unprocessable_entity', { email: 'invalid_email' }))
    await send(dialog, 'x@y.zz')
    expect(await within(dialog).findByText('*please provide a valid email')).toBeInTheDocument()
  })
})

describe('Transfer ownership', () => {
  it('asks the current password, sends it with the new owner, and shows a wrong one on its field', async () => {
    let answer = () => error(422, 'unprocessable_entity', { current_password: 'wrong_password' })
    const fetch = api('owner', [owner, bob], {
      extra: { 'POST /v1/accounts/a/transfer-ownership': () => answer() },
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Transfer ownership' }))
    const dialog = await screen.findByRole('dialog', { name: 'Transfer ownership' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer ownership' }))
    expect(await within(dialog).findByText('*field required')).toBeInTheDocument()
    expect(within(dialog).getByText('*password is required')).toBeInTheDocument()
    expect(calls(fetch)).not.toContain('POST /v1/accounts/a/transfer-ownership')
    await userEvent.selectOptions(within(dialog).getByLabelText('New owner'), 'u2')
    await userEvent.type(within(dialog).getByLabelText('Your current password'), 'Guess12!')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer ownership' }))
    expect(await within(dialog).findByText('*the current password is wrong')).toBeInTheDocument()
    expect(bodyOf(fetch, 'POST /v1/accounts/a/transfer-ownership')).toEqual({ user_id: 'u2', current_password: 'Guess12!' })
    answer = () => json(200, { owner: 'u2' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer ownership' }))
    expect(await screen.findByText('Bob Builder is now the owner of Acme.')).toBeInTheDocument()
  })
})

describe('Leaving the account', () => {
  const me = { ...bob, email: 'jane@example.com' }
  const leave = (accounts: unknown[]) =>
    api('member', [{ ...owner, email: 'boss@example.com' }, me], {
      extra: {
        'DELETE /v1/accounts/a/members/u2': () => new Response(null, { status: 204 }),
        'GET /v1/accounts': () => json(200, { accounts }),
        'POST /v1/auth/signout': () => new Response(null, { status: 204 }),
      },
    })

  it('asks first, then goes to another account the user belongs to', async () => {
    const fetch = leave([{ id: 'own', name: 'Own', role: 'owner', plan: 'TRIAL', last_used: false }])
    const { router } = await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Leave Acme' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave Acme?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay' }))
    expect(calls(fetch)).not.toContain('DELETE /v1/accounts/a/members/u2')
    await userEvent.click(screen.getByRole('button', { name: 'Leave Acme' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/own/testimonials'))
    expect(calls(fetch)).toContain('DELETE /v1/accounts/a/members/u2')
    expect(localStorage.getItem('account_id')).toBe('own')
  })

  it('with no other account, signs out to the sign-in page', async () => {
    localStorage.setItem('auth_token', 't')
    const fetch = leave([])
    const { router } = await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Leave Acme' }))
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'))
    expect(calls(fetch)).toContain('POST /v1/auth/signout')
    expect(localStorage.getItem('auth_token')).toBeNull()
  })
})

describe('TeamPageFailed', () => {
  it('says the team could not be loaded, with a retry', async () => {
    let retried = 0
    await renderWithProviders(<TeamPageFailed retrying={false} onRetry={() => retried++} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('The team could not be loaded.')
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(retried).toBe(1)
  })
})
