import { lazy, Suspense, useState } from 'react'
import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { accountQueryOptions, isUserNotActivated } from '@/lib/api/get-account'
import { isApiError } from '@/lib/api-client'
import { Deferred } from '@/components/deferred'
import { i18n, isLanguage, setLanguage } from '@/lib/i18n'
import { isOnboardingOpen, openOnboardingIfNeeded } from '@/lib/onboarding-flag'
import { clearSession, hasValidSession } from '@/lib/session'
import { signinReturningTo } from '@/features/auth/api/session-schema'
import { DashboardShell } from '@/features/dashboard-shell/components/dashboard-shell'
import {
  ActivationRequiredLazy,
  loadActivationRequired,
} from '@/features/dashboard-shell/components/activation-required-lazy'
import { ShellSkeleton } from '@/features/dashboard-shell/components/shell-skeleton'
import { NoAccessPage } from '@/features/dashboard-shell/components/no-access-page'

// The onboarding wizard (forms, a country select) is a chunk of its own,
// downloaded only when onboarding is open: most dashboard loads skip it.
const loadOnboardingWizard = () => import('@/features/onboarding/components/onboarding-wizard')
// The two-factor policy's screen (issue 29): only for a member the account asks to enrol or confirm.
const loadMfaRequired = () => import('@/features/mfa/components/mfa-required-page')
const MfaRequiredPage = lazy(() => loadMfaRequired().then((m) => ({ default: m.MfaRequiredPage })))
const OnboardingWizard = lazy(() => loadOnboardingWizard().then((m) => ({ default: m.OnboardingWizard })))

export const Route = createFileRoute('/dashboard/$accountId')({
  staticData: { texts: ['dashboard-shell'] },
  // The one auth redirect of the app: every dashboard route sits below it. The page
  // asked for (a mail's link) is where the sign-in comes back to (issue 37).
  beforeLoad: ({ location }) => {
    if (!hasValidSession()) {
      clearSession()
      throw redirect(signinReturningTo(location.href))
    }
  },
  loader: async ({ context: { queryClient }, params: { accountId }, location }) => {
    // The shell's texts load while the account is fetched, not after it: one
    // round trip less before the dashboard draws (issue 37 item 9). A change
    // to the user's own language below loads them again in that language.
    void i18n.loadNamespaces('dashboard-shell')
    try {
      // A stale read is refreshed in the background: a member removed meanwhile sees it at their next step.
      const data = await queryClient.ensureQueryData({ ...accountQueryOptions(accountId), revalidateIfStale: true })
      openOnboardingIfNeeded(accountId, data.account.subscription.show_onboarding, data.account.role)
      if (isOnboardingOpen(accountId)) void loadOnboardingWizard()
      const preferred = data.user.preferred_language
      if (isLanguage(preferred)) await setLanguage(preferred)
      await i18n.loadNamespaces('dashboard-shell')
      return { notActivated: false, noAccess: false, mfa: null }
    } catch (error) {
      // The owner requires two-factor sign-in: enrol, or confirm with the second factor.
      if (isApiError(error) && (error.code === 'mfa_enrolment_required' || error.code === 'second_factor_required')) {
        await Promise.all([i18n.loadNamespaces('mfa'), loadMfaRequired()])
        return { notActivated: false, noAccess: false, mfa: error.code === 'mfa_enrolment_required' ? 'enrol' : 'verify' }
      }
      // 403 user_not_activated is handled quietly: only the confirm dialog shows.
      if (isUserNotActivated(error)) {
        await Promise.all([i18n.loadNamespaces('dashboard-shell'), loadActivationRequired()])
        return { notActivated: true, noAccess: false, mfa: null }
      }
      // 404: an account the user does not (or no longer) belong to, e.g. removed from its team:
      // a page that says so, also handled quietly.
      if (isApiError(error) && error.status === 404) {
        await i18n.loadNamespaces('dashboard-shell')
        return { notActivated: false, noAccess: true, mfa: null }
      }
      if (isApiError(error) && error.status === 401) throw redirect(signinReturningTo(location.href))
      throw error
    }
  },
  // The frame shows at once (the router's pendingMs) while the account loads.
  pendingComponent: ShellSkeleton,
  component: DashboardLayout,
})

function DashboardLayout() {
  const { accountId } = Route.useParams()
  const { notActivated, noAccess, mfa } = Route.useLoaderData()
  // Read once, like the wizard's own open state: it stays mounted until done.
  const [onboarding] = useState(() => isOnboardingOpen(accountId))
  if (notActivated) return <ActivationRequiredLazy />
  if (noAccess) return <NoAccessPage accountId={accountId} />
  if (mfa) {
    return (
      <Suspense fallback={<ShellSkeleton />}>
        <MfaRequiredPage enrol={mfa === 'enrol'} />
      </Suspense>
    )
  }
  const wizard = onboarding && (
    <Suspense fallback={null}>
      <OnboardingWizard accountId={accountId} />
    </Suspense>
  )
  // The shell and the page are drawn in a background render behind the
  // skeleton the loader showed (components/deferred.tsx).
  return (
    <Deferred fallback={<ShellSkeleton />}>
      <DashboardShell accountId={accountId} extra={wizard}>
        <Outlet />
      </DashboardShell>
    </Deferred>
  )
}
