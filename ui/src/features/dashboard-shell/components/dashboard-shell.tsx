import { useEffect, type ReactNode } from 'react'
import { Link, useLocation } from '@tanstack/react-router'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Brand } from '@/components/brand'
import { accountQueryOptions, isUserNotActivated } from '@/lib/api/get-account'
import { isLanguage, setLanguage } from '@/lib/i18n'
import { canManageBilling } from '@/lib/roles'
import { useRefreshWhenPaid } from '@/lib/subscription-refresh'
import { isApiError } from '@/lib/api-client'
import { LARGE, useMediaQuery, WIDE } from '@/lib/use-media-query'
import { ActivationRequiredLazy } from './activation-required-lazy'
import { BlockingOverlay } from './blocking-overlay'
import { HelpMenu } from './help-menu'
import { MobileNav } from './mobile-nav'
import { NoAccessPage } from './no-access-page'
import { PaymentRetryBanner } from './payment-retry-banner'
import { DeletionBanner } from './deletion-banner'
import { ShellFooter } from './shell-footer'
import { Sidebar } from './sidebar'
import { SubscriptionNotice } from './subscription-notice'
import { UserMenu } from './user-menu'
import { isSidebarHidden, overlayFor, planLabel } from './shell-rules'

/**
 * Dashboard frame: fixed h-12 header, sidebar (md+) or dropdown menu (each
 * drawn only at its width), the routed page in a scrollable area, overlays
 * per subscription status.
 * `extra` renders on top of the page (the onboarding wizard).
 */
export function DashboardShell({
  accountId,
  children,
  extra,
}: {
  accountId: string
  children: ReactNode
  extra?: ReactNode
}) {
  const { t } = useTranslation('dashboard-shell')
  const { data, error } = useSuspenseQuery(accountQueryOptions(accountId))
  const pathname = useLocation({ select: (location) => location.pathname })
  const { account, user } = data
  // What one width hides is not drawn there (undefined, unknown: both are).
  const wide = useMediaQuery(WIDE)
  const large = useMediaQuery(LARGE)
  const owner = canManageBilling(account.role)
  const subscription = account.subscription
  const preferred = user.preferred_language

  // After account load the UI follows the user's preferred language (SPEC §4).
  useEffect(() => {
    if (isLanguage(preferred)) void setLanguage(preferred)
  }, [preferred])
  // A payment settling while any page is open refreshes what it changed.
  useRefreshWhenPaid(accountId, subscription)

  // The e-mail was changed and not confirmed yet: a refetch answers 403.
  if (isUserNotActivated(error)) return <ActivationRequiredLazy email={user.email} />
  // Removed from the account meanwhile (issue 26): a refetch answers 404.
  if (isApiError(error) && error.status === 404) return <NoAccessPage accountId={accountId} />

  const sidebarHidden = isSidebarHidden(pathname)
  // In the header on large screens, under it on smaller ones.
  const notice = (className: string) => (
    <SubscriptionNotice accountId={accountId} subscription={subscription} owner={owner} className={className} />
  )
  const overlay = overlayFor(subscription.show_status, pathname)

  return (
    <div className="min-h-screen">
      <header className="fixed inset-x-0 top-0 z-40 flex h-12 items-center gap-2 border-b bg-background px-2 sm:px-4">
        {wide !== true && <MobileNav accountId={accountId} />}
        <Link
          to="/dashboard/$accountId/testimonials"
          params={{ accountId }}
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label={t('header.home')}
        >
          <Brand />
        </Link>
        <span
          className="rounded-full border border-primary/30 bg-accent px-2 py-0.5 text-xs font-medium text-accent-foreground"
          data-testid="plan-badge"
        >
          {t(`common:plans.${subscription.plan}`, { defaultValue: planLabel(subscription.plan) })}
        </span>
        {large !== false && notice('ml-2 hidden lg:flex')}
        <div className="ml-auto flex items-center gap-1">
          <HelpMenu />
          <UserMenu accountId={accountId} user={user} role={account.role} />
        </div>
      </header>

      {!sidebarHidden && wide !== false && <Sidebar accountId={accountId} />}

      <main
        className={
          sidebarHidden
            ? 'fixed inset-x-0 bottom-0 top-12 flex flex-col overflow-y-auto'
            : 'fixed bottom-0 left-0 right-0 top-12 flex flex-col overflow-y-auto md:left-56'
        }
      >
        {large !== true && notice('flex flex-wrap border-b bg-accent/50 px-4 py-2 lg:hidden')}
        {/* A renewal payment being retried is the owner's business (billing). */}
        {owner && <PaymentRetryBanner accountId={accountId} subscription={subscription} />}
        <DeletionBanner accountId={accountId} data={data} />
        <div className="flex flex-1 flex-col" inert={overlay ? true : undefined}>
          {children}
        </div>
        <ShellFooter />
      </main>

      {overlay && <BlockingOverlay kind={overlay} accountId={accountId} sidebarHidden={sidebarHidden} owner={owner} />}
      {!overlay && extra}
    </div>
  )
}
