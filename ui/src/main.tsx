// First: the first screen's api reads start before the rest is evaluated.
import './boot'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { setStepUpHandler, setUnauthorizedHandler } from '@/lib/api-client'
import { dismissError } from '@/lib/error-store'
import { i18n, initI18n } from '@/lib/i18n'
import { nextTask } from '@/lib/next-task'
import { createQueryClient } from '@/lib/query-client'
import { askSecondFactor } from '@/lib/second-factor'
import { signinReturningTo } from '@/features/auth/api/session-schema'
import { createAppRouter, firstScreen } from './router'
import './index.css'

// The start is a row of short tasks, each ended by nextTask, not one long
// one: between them the browser paints and answers input, and a phone's
// main thread is never held for long (issue 37 item 9: evaluating the code,
// i18n, the router and the first screen's chunk requests were one task of
// about 600 ms at Lighthouse's 4× slowdown, most of the page's blocking time).
async function start() {
  await nextTask()
  // The first texts are asked for first: their request travels meanwhile.
  const texts = initI18n()
  await nextTask()

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
  // real paint (issue 37 item 9). An index route that always redirects names
  // where (staticData.leadsTo): that page's code comes too, not only after
  // the redirect; and the routes' own translations (staticData.texts) with
  // it. A chunk or namespace that fails here is fetched again, and its error
  // shown, by the router's own load or where the page uses it. Each route's
  // chunks are asked for in a task of their own: starting a request costs the
  // main thread too.
  const first = firstScreen(router, window.location.pathname)
  if (first.texts.length > 0) void i18n.loadNamespaces(first.texts).catch(() => {})
  const routeChunks: Promise<unknown>[] = []
  for (const route of first.routes) {
    await nextTask()
    routeChunks.push(Promise.resolve(router.loadRouteChunk(route)).catch(() => {}))
  }

  await Promise.all([texts, ...routeChunks])
  const root = createRoot(document.getElementById('root')!)
  startTransition(() => root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  ))
}

void start()
