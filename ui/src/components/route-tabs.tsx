import type { ReactNode } from 'react'
import { Link, type LinkProps } from '@tanstack/react-router'
import { cn } from '@/lib/utils'

export interface RouteTab {
  /** A child route of the page, e.g. '/dashboard/$accountId/billing/invoices'. */
  to: LinkProps['to']
  label: string
}

const tabClass =
  'inline-flex items-center justify-center whitespace-nowrap rounded-md px-3 py-1 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring'

/**
 * A page headed by `title` whose tabs are child routes: each tab is a
 * <Link> (so it can be opened in a new tab, preloads on intent and marks
 * itself with aria-current="page"), and `children` is the routed panel.
 */
export function RouteTabs({
  title,
  tabs,
  params,
  className,
  children,
}: {
  title: string
  tabs: readonly RouteTab[]
  params: Record<string, string>
  className?: string
  children: ReactNode
}) {
  return (
    <section className={cn('mx-auto grid w-full max-w-4xl content-start gap-4 p-4 md:p-8', className)}>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <nav aria-label={title} className="flex w-fit max-w-full flex-wrap gap-1 rounded-lg bg-muted p-1">
        {tabs.map((tab) => (
          <Link
            key={String(tab.to)}
            to={tab.to}
            // The tabs are siblings of one route: they share its params.
            params={params as never}
            className={tabClass}
            activeProps={{ className: 'bg-background text-foreground shadow', 'aria-current': 'page' }}
            inactiveProps={{ className: 'text-slate-700 hover:text-foreground' }}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      <div className="min-w-0">{children}</div>
    </section>
  )
}
