import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AccountSettingsLayout } from '@/features/account/components/account-settings-layout'

export const Route = createFileRoute('/dashboard/$accountId/account-settings')({
  component: AccountSettingsRoute,
})

function AccountSettingsRoute() {
  const { accountId } = Route.useParams()
  return (
    <AccountSettingsLayout accountId={accountId}>
      <Outlet />
    </AccountSettingsLayout>
  )
}
