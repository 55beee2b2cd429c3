// First: the first screen's api reads start before the rest is evaluated.
import './boot'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { setStepUpHandler, setUnauthorizedHandler } from '@/lib/api-client'
import { dismissError } from '@/lib/error-store'
import { i18n, initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'
import { askSecondFactor } from '@/lib/second-factor'
import { signinReturningTo } from '@/features/auth/api/session-schema'
import { createAppRouter, firstScreen } from './router'
import './index.css'

const queryClient = createQueryClient()
const router = createAppRouter(queryClient)

// Any 401 on a signed-in call: the session is already cleared, go to sign-in.
setUnauthorizedHandler(() => {
  queryClient.clear()
  const here = router.state.location
  if (here.pathname === '/signin') return
  // The page comes back after signing in (an invitation, a mail's link: issue 37).
  void router.navigate(signinReturningTo(here.href))
})

// A change answered 403 second_factor_required: the step-up dialog (at the root), then again.
setStepUpHandler(askSecondFactor)

// A popup belongs to the screen it was raised on: a new page clears it.
router.subscribe('onResolved', ({ pathChanged }) => {
  if (pathChanged) dismissError()
})

// The first screen's code is fetched while i18n loads its texts, not after:
// on a slow network each wait in a row costs a round trip before the first
// real paint (issue 37 item 9). A chunk that fails here is fetched again,
// and its error shown, by the router's own load.
const texts = initI18n()
// An index route that always redirects names where (staticData.leadsTo): that
// page's code comes too, not only after the redirect; and the routes' own
// translations (staticData.texts) with it. A namespace that fails here is
// asked for again, its error shown, where the page uses it.
const first = firstScreen(router, window.location.pathname)
const routeChunks = Promise.all(first.routes.map((route) => Promise.resolve(router.loadRouteChunk(route)).catch(() => {})))
if (first.texts.length > 0) void i18n.loadNamespaces(first.texts).catch(() => {})

void Promise.all([texts, routeChunks]).then(() => {
  const root = createRoot(document.getElementById('root')!)
  startTransition(() => root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  ))
})
