import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { createAppRouter } from '@/router'

// Issue 37 item 6: a "skip to content" link starts every page: the first
// thing Tab reaches, visually hidden until focused, and it moves focus to
// the page's main content.
describe('skip to content', () => {
  it('is the first stop of the keyboard and takes it to the main content', async () => {
    const queryClient = createQueryClient()
    const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: ['/signin'] }))
    await act(() => router.load())
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    )
    await screen.findByRole('heading', { level: 1 })
    await userEvent.tab()
    const skip = screen.getByRole('link', { name: 'Skip to content' })
    expect(skip).toHaveFocus()
    expect(skip).toHaveClass('sr-only')
    expect(skip).toHaveClass('focus:not-sr-only')
    await userEvent.click(skip)
    await waitFor(() => expect(document.querySelector('main')).toHaveFocus())
  })
})
