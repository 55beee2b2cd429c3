import type { ReactElement } from 'react'
import { render } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router'
import { createQueryClient } from '@/lib/query-client'

/** Renders `ui` at `path` inside a QueryClient and a memory router (Link/useNavigate work). */
export async function renderWithProviders(ui: ReactElement, path = '/') {
  const queryClient = createQueryClient()
  const rootRoute = createRootRoute({ component: () => <Outlet /> })
  const pageRoute = createRoute({ getParentRoute: () => rootRoute, path: '$', component: () => ui })
  const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: () => ui })
  const router = createRouter({
    routeTree: rootRoute.addChildren([indexRoute, pageRoute]),
    history: createMemoryHistory({ initialEntries: [path] }),
  })
  await router.load()
  const result = render(
    <QueryClientProvider client={queryClient}>
      {/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- test router is not the registered one */}
      <RouterProvider router={router as any} />
    </QueryClientProvider>,
  )
  return { ...result, router, queryClient }
}
