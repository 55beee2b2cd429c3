import { useEffect } from 'react'
import { useRouter } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthLayout } from './auth-layout'
import { SigninForm } from './signin-form'

export function SigninPage({ redirect }: { redirect?: string }) {
  // Both namespaces at once: the passkey button's would otherwise load after.
  const { t, i18n } = useTranslation(['auth', 'passkeys'])
  const router = useRouter()
  // While the user types, fetch the dashboard's code (not its data: there is
  // no session yet), so signing in draws the shell without a second wait.
  useEffect(() => {
    const preload = () => {
      for (const id of ['/dashboard/$accountId', '/dashboard/$accountId/testimonials/'] as const) {
        const route = router.routesById[id]
        if (route) void Promise.resolve(router.loadRouteChunk(route)).catch(() => {})
      }
      void i18n.loadNamespaces('dashboard-shell')
    }
    const handle = window.setTimeout(preload, 300)
    return () => window.clearTimeout(handle)
  }, [router, i18n])
  return (
    <AuthLayout title={t('signin.title')} description={t('signin.description')}>
      <SigninForm redirect={redirect} />
    </AuthLayout>
  )
}
