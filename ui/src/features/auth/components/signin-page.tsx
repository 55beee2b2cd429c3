import { useEffect } from 'react'
import { useRouter } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { AuthLayout } from './auth-layout'
import { SigninForm } from './signin-form'

export function SigninPage({ redirect }: { redirect?: string }) {
  // Both namespaces at once: the passkey button's would otherwise load after.
  const { t, i18n } = useTranslation(['auth', 'passkeys'])
  const router = useRouter()
  // Once the user shows intent (a pointer, a key or focus in the page: they
  // start typing or reach for a button), fetch the dashboard's code (not its
  // data: there is no session yet), so signing in draws the shell without a
  // second wait. Not on a timer after the first paint: evaluating those
  // chunks then is main-thread work in the middle of the page's own start,
  // which slow phones feel as a page that does not answer (issue 37 item 9).
  useEffect(() => {
    const events = ['pointerdown', 'keydown', 'focusin', 'touchstart'] as const
    const preload = () => {
      stop()
      for (const id of ['/dashboard/$accountId', '/dashboard/$accountId/testimonials/'] as const) {
        const route = router.routesById[id]
        if (route) void Promise.resolve(router.loadRouteChunk(route)).catch(() => {})
      }
      void i18n.loadNamespaces('dashboard-shell')
    }
    const stop = () => events.forEach((e) => document.removeEventListener(e, preload, true))
    events.forEach((e) => document.addEventListener(e, preload, { capture: true, passive: true }))
    return stop
  }, [router, i18n])
  return (
    <AuthLayout title={t('signin.title')} description={t('signin.description')}>
      <SigninForm redirect={redirect} />
    </AuthLayout>
  )
}
