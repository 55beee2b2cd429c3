import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { getStoredAccountId } from '@/lib/session'
import { renderWithProviders } from '@/test/render'
import { json, mockApi } from '@/test/mock-api'
import { NoAccessPage } from './no-access-page'

describe('NoAccessPage', () => {
  it('an account the user no longer belongs to (404): says so and offers their other accounts', async () => {
    mockApi({
      'GET /v1/accounts': () =>
        json(200, {
          accounts: [
            { id: 'gone', name: 'Acme', role: 'member', plan: 'TEAM', last_used: true },
            { id: 'own', name: 'Globex', role: 'owner', plan: 'TRIAL', last_used: false },
          ],
        }),
    })
    const { router } = await renderWithProviders(
      <NoAccessPage accountId="gone" />,
      '/dashboard/gone/testimonials',
    )
    expect(await screen.findByRole('heading', { level: 1, name: 'You have no access to this account' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Open Acme' })).toBeNull()
    await userEvent.click(await screen.findByRole('button', { name: 'Open Globex' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/own/testimonials'))
    expect(getStoredAccountId()).toBe('own')
  })
})
