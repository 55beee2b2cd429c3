// Across features (the dashboard shell and the team page), so it lives
// with the test helpers: features may import no other feature.
import { Suspense } from 'react'
import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { DashboardShell } from '@/features/dashboard-shell/components/dashboard-shell'
import { TeamPage } from '@/features/team/components/team-page'
import { queryKeys } from '@/lib/query-keys'
import { renderWithProviders } from '@/test/render'
import { accountBody, json, mockApi } from '@/test/mock-api'

describe('a payment that settles while a page is open', () => {
  it("re-reads the team's seats once the seats bought are paid (the page was opened while the payment processed)", async () => {
    let paid = false
    mockApi({
      'GET /v1/accounts/a': () =>
        json(
          200,
          accountBody({
            plan: 'TEAM',
            plan_renewal_at: '2027-03-12T10:00:00Z',
            show_status: paid ? 'active' : 'processing',
            extra_seats: paid ? 2 : 0,
          }),
        ),
      'GET /v1/accounts/a/members': () => json(200, { members: [], seats: { used: 1, limit: paid ? 12 : 10 } }),
    })
    const { queryClient } = await renderWithProviders(
      <Suspense fallback={null}>
        <DashboardShell accountId="a">
          <TeamPage accountId="a" />
        </DashboardShell>
      </Suspense>,
      '/dashboard/a/team',
    )
    expect(await screen.findByTestId('overlay-processing')).toBeInTheDocument()
    expect(screen.getByTestId('seats')).toHaveTextContent('1 of 10 seats used')
    paid = true
    // What the 2.5 s poll of a processing account does.
    await queryClient.invalidateQueries({ queryKey: queryKeys.account('a') })
    await waitFor(() => expect(screen.getByTestId('seats')).toHaveTextContent('1 of 12 seats used'))
    expect(screen.queryByTestId('overlay-processing')).not.toBeInTheDocument()
  })
})
