import { Suspense } from 'react'
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { ErrorPopup } from '@/components/error-popup'
import { RootErrorPage, RootNotFoundPage } from '@/components/error-page'
import { PageLoader } from '@/components/page-loader'

export interface RouterContext {
  queryClient: QueryClient
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  errorComponent: RootErrorPage,
  notFoundComponent: RootNotFoundPage,
})

function RootLayout() {
  return (
    <>
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
      <ErrorPopup />
    </>
  )
}
