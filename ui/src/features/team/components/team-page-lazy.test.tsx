import { Suspense } from 'react'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { accountBody, json, mockApi, withRole } from '@/test/mock-api'
import { TeamPage } from './team-page'
import { TeamPagePending } from './team-page-states'

// Issue 37 item 9, round 8: the team page's first load no longer fetches
// and runs the dialogs' code (Radix's dialog and alert dialog) nor
// react-hook-form; they come when the browser is idle after the page has
// drawn. Which modules were evaluated is recorded by mocks that pass the
// real module on.
const loaded = vi.hoisted(() => new Set<string>())
vi.mock('react-hook-form', async (importOriginal) => {
  loaded.add('react-hook-form')
  return importOriginal()
})
vi.mock('@radix-ui/react-dialog', async (importOriginal) => {
  loaded.add('dialog')
  return importOriginal()
})
vi.mock('@radix-ui/react-alert-dialog', async (importOriginal) => {
  loaded.add('alert-dialog')
  return importOriginal()
})

const member = (user_id: string, email: string, role: string) => ({
  user_id,
  email,
  firstname: '',
  lastname: '',
  role,
  joined_at: '2026-03-01T10:00:00Z',
})

// requestIdleCallback is held here, run when the test says.
let idle: Array<() => void> = []
beforeEach(() => {
  idle = []
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback))
  vi.stubGlobal('cancelIdleCallback', () => {})
})
afterEach(() => vi.unstubAllGlobals())

// The dialogs' modules are transformed on their first import in this test
// (vitest transforms on demand): on a loaded machine (make test's lanes at
// once) that took more than 30 s, so the test has more than the usual 90 s.
describe('TeamPage, its dialogs’ code', () => {
  it('is not loaded with the page; a dialog opened before it comes shows a spinner, then the dialog with focus inside, and focus returns to the opener', { timeout: 120000 }, async () => {
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
    expect([...loaded]).toEqual([])
    // The page asks to be called back once it has drawn and the browser is idle.
    await waitFor(() => expect(idle.length).toBeGreaterThan(0), { timeout: 5000 })
    expect([...loaded]).toEqual([])

    // Opened before then: the opener keeps focus while a spinner says it loads.
    const opener = screen.getByRole('button', { name: 'Transfer ownership' })
    expect(opener).toHaveAttribute('aria-haspopup', 'dialog')
    await userEvent.click(opener)
    expect(screen.getByTestId('dialog-loading')).toHaveAttribute('role', 'status')
    expect(screen.getByTestId('dialog-loading')).toHaveTextContent('Loading…')
    expect(opener).toHaveFocus()
    expect(opener).toHaveAttribute('aria-expanded', 'true')

    const dialog = await screen.findByRole('dialog', { name: 'Transfer ownership' })
    expect(within(dialog).getByLabelText('New owner')).toBeInTheDocument()
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
    expect(screen.queryByTestId('dialog-loading')).not.toBeInTheDocument()
    expect(loaded.has('react-hook-form')).toBe(true)

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(opener).toHaveFocus())

    // The idle callback fetches the rest (the confirmation's alert dialog, the invitation's form).
    await act(async () => {
      for (const callback of idle) callback()
    })
    await waitFor(() => expect(loaded.has('alert-dialog')).toBe(true))
  })
})
