import { lazy, Suspense } from 'react'
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { ErrorPopup } from '@/components/error-popup'
import { RootErrorPage, RootNotFoundPage } from '@/components/error-page'
import { PageLoader } from '@/components/page-loader'
import { SkipLink } from '@/components/skip-link'
import { useSecondFactorAsked } from '@/lib/second-factor'

// The step-up dialog (issue 29) is a chunk of its own, loaded when a change asks for it.
const SecondFactorDialog = lazy(() =>
  import('@/features/mfa/components/second-factor-dialog').then((m) => ({ default: m.SecondFactorDialog })),
)

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
      <SkipLink />
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
      <ErrorPopup />
      <SecondFactorStepUp />
    </>
  )
}

function SecondFactorStepUp() {
  const asked = useSecondFactorAsked()
  return asked ? (
    <Suspense fallback={null}>
      <SecondFactorDialog />
    </Suspense>
  ) : null
}
