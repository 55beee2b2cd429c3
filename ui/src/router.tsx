import { createRouter, type RouterHistory } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { routeTree, type FileRouteTypes } from './routeTree.gen'
import { ErrorPage, NotFoundPage } from '@/components/error-page'
import { PageLoader } from '@/components/page-loader'

// Search params are plain strings (tokens, e-mails, codes): no JSON coercion,
// so a numeric-looking token stays exactly what the mail link carried.
export function parseSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search))
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue
    params.set(key, typeof value === 'string' ? value : JSON.stringify(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** The app's router; `history` only for tests (the browser's by default). */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    context: { queryClient },
    defaultPreload: 'intent',
    // Query owns caching; the router always asks it (ensureQueryData is cheap).
    defaultPreloadStaleTime: 0,
    defaultErrorComponent: ErrorPage,
    defaultNotFoundComponent: NotFoundPage,
    defaultPendingComponent: PageLoader,
    // A skeleton after 150 ms rather than the default 1 s (a blank wait
    // reads as broken), and then for at least 300 ms so it does not flash.
    defaultPendingMs: 150,
    defaultPendingMinMs: 300,
    parseSearch,
    stringifySearch,
  })
}

type AppRouter = ReturnType<typeof createAppRouter>

/**
 * What the first screen at `pathname` needs before it can draw: its routes
 * (with the page a redirecting index route leads to, staticData.leadsTo),
 * whose code main.tsx fetches at once, and the translation namespaces they
 * name (staticData.texts), fetched beside it rather than when their loader
 * or component first asks (on a slow network each wait in a row costs a
 * round trip before the first real paint: issue 37 item 9).
 */
export function firstScreen(router: AppRouter, pathname: string) {
  const [matched] = router.getMatchedRoutes(pathname)
  const leadsTo = matched.flatMap((route) => (route.options.staticData?.leadsTo ? [router.routesById[route.options.staticData.leadsTo]] : []))
  const routes = [...matched, ...leadsTo]
  const texts = [...new Set(routes.flatMap((route) => route.options.staticData?.texts ?? []))]
  return { routes, texts }
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>
  }
  interface StaticDataRouteOption {
    /**
     * The route an index route always redirects to (billing's to its payment
     * details): its code is fetched with the first screen's (main.tsx), not
     * after the redirect.
     */
    leadsTo?: FileRouteTypes['id']
    /**
     * The translation namespaces the route's own loader or component loads
     * (beyond common): fetched with the first screen's code (firstScreen).
     */
    texts?: string[]
  }
}
