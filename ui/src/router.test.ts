import { describe, expect, it } from 'vitest'
import { isRedirect } from '@tanstack/react-router'
import { QueryClient } from '@tanstack/react-query'
import { createAppRouter, firstScreen } from './router'

const ACCOUNT = '0b9d6a4e-3f43-4a5e-9c1e-2f6d8f9e0a11'

describe('staticData.leadsTo', () => {
  it('names the route each redirecting index route goes to', () => {
    const router = createAppRouter(new QueryClient())
    const leading = Object.values(router.routesById).filter((route) => route.options.staticData?.leadsTo)
    expect(leading.map((route) => route.id).sort()).toEqual([
      '/dashboard/$accountId/',
      '/dashboard/$accountId/account-settings/',
      '/dashboard/$accountId/billing/',
    ])
    for (const route of leading) {
      let thrown: unknown
      try {
        ;(route.options.beforeLoad as (ctx: unknown) => unknown)({ params: { accountId: ACCOUNT } })
      } catch (error) {
        thrown = error
      }
      expect(isRedirect(thrown)).toBe(true)
      const target = (thrown as { options: { to: string } }).options.to
      // A route's id is its path, index routes with a trailing slash.
      expect([target, `${target}/`]).toContain(route.options.staticData!.leadsTo)
      const leadsTo = route.options.staticData!.leadsTo as keyof typeof router.routesById
      expect(router.routesById[leadsTo]).toBeDefined()
    }
  })
})

describe('firstScreen', () => {
  it('names the code and the texts of the first screen, the page an index route leads to included', () => {
    const router = createAppRouter(new QueryClient())
    const billing = firstScreen(router, `/dashboard/${ACCOUNT}/billing`)
    expect(billing.routes.map((route) => route.id)).toContain('/dashboard/$accountId/billing/payment-details')
    expect(billing.texts.sort()).toEqual(['billing', 'dashboard-shell'])
    expect(firstScreen(router, `/dashboard/${ACCOUNT}/team`).texts.sort()).toEqual(['billing', 'dashboard-shell', 'team'])
    expect(firstScreen(router, '/signin').texts).toEqual([])
  })
})
