import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { accountQueryOptions, isUserNotActivated } from '@/lib/api/get-account'
import { isApiError } from '@/lib/api-client'
import { i18n, isLanguage, setLanguage } from '@/lib/i18n'
import { openOnboardingIfNeeded } from '@/lib/onboarding-flag'
import { clearSession, hasValidSession } from '@/lib/session'
import { DashboardShell } from '@/features/dashboard-shell/components/dashboard-shell'
import { ActivationRequired } from '@/features/dashboard-shell/components/activation-required'
import { ShellSkeleton } from '@/features/dashboard-shell/components/shell-skeleton'
import { OnboardingWizard } from '@/features/onboarding/components/onboarding-wizard'

export const Route = createFileRoute('/dashboard/$accountId')({
  // The one auth redirect of the app: every dashboard route sits below it.
  beforeLoad: () => {
    if (!hasValidSession()) {
      clearSession()
      throw redirect({ to: '/signin' })
    }
  },
  loader: async ({ context: { queryClient }, params: { accountId } }) => {
    try {
      const data = await queryClient.ensureQueryData(accountQueryOptions(accountId))
      openOnboardingIfNeeded(accountId, data.account.subscription.show_onboarding)
      const preferred = data.user.preferred_language
      if (isLanguage(preferred)) await setLanguage(preferred)
      await i18n.loadNamespaces('dashboard-shell')
      return { notActivated: false }
    } catch (error) {
      // 403 user_not_activated is handled quietly: only the confirm dialog shows.
      if (isUserNotActivated(error)) {
        await i18n.loadNamespaces('dashboard-shell')
        return { notActivated: true }
      }
      if (isApiError(error) && error.status === 401) throw redirect({ to: '/signin' })
      throw error
    }
  },
  // The frame shows at once (the router's pendingMs) while the account loads.
  pendingComponent: ShellSkeleton,
  component: DashboardLayout,
})

function DashboardLayout() {
  const { accountId } = Route.useParams()
  const { notActivated } = Route.useLoaderData()
  if (notActivated) return <ActivationRequired />
  return (
    <DashboardShell accountId={accountId} extra={<OnboardingWizard accountId={accountId} />}>
      <Outlet />
    </DashboardShell>
  )
}
