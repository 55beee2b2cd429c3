import { createFileRoute, Outlet } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { RouteTabs } from '@/components/route-tabs'

export const Route = createFileRoute('/dashboard/$accountId/account-settings')({
  component: AccountSettingsRoute,
})

/** Account settings: the tabs 'your plan' (plan + account details) and 'personal details'. */
function AccountSettingsRoute() {
  const { accountId } = Route.useParams()
  const { t } = useTranslation('account')
  return (
    <RouteTabs
      title={t('title')}
      params={{ accountId }}
      tabs={[
        { to: '/dashboard/$accountId/account-settings/plan', label: t('tabs.plan') },
        { to: '/dashboard/$accountId/account-settings/personal-details', label: t('tabs.personal_details') },
      ]}
    >
      <Outlet />
    </RouteTabs>
  )
}
