import { useEffect, useRef } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Loader2, TriangleAlert } from 'lucide-react'
import { buttonVariants } from '@/components/ui/button'
import { isApiError } from '@/lib/api-client'
import { signedInBy, useOidcCallback } from '../api/auth-callback'
import { takeStepUpReturn } from '@/lib/step-up'
import { signedInHome } from '../api/session-schema'
import { AuthLayout } from './auth-layout'

/** Finishes a Google sign-up / sign-in: scope signup → registered, signin → the page to return to or the dashboard, reauth → back. */
export function AuthCallbackPage({ code, state }: { code?: string; state?: string }) {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const callback = useOidcCallback()
  const started = useRef(false)
  const missing = !code || !state
  const { mutate } = callback

  useEffect(() => {
    if (started.current) return
    started.current = true
    // Missing code or state (SPEC §8's 500) is shown by this page itself, not also in a popup.
    if (!code || !state) return
    mutate(
      { code, state },
      {
        onSuccess: (result) => {
          if (result.mfa_required) {
            // A second factor is due: the challenge screen signs in.
            void navigate({ to: '/signin/verify' })
          } else if (result.scope === 'reauth') {
            // A step-up: back to the page that asked for it, to make the change.
            void navigate({ to: takeStepUpReturn() })
          } else if (result.invitation && result.scope === 'signin') {
            // An existing user: back to the invitation, now signed in, to accept it.
            void navigate({ to: '/invitation', search: { token: result.invitation } })
          } else if (result.scope === 'signup' && !signedInBy(result)) {
            void navigate({ to: '/registered', search: { created: result.email } })
          } else if (result.scope === 'signin' && result.back) {
            // A mail's link opened while signed out: its page (same-origin, checked).
            void navigate({ href: result.back })
          } else {
            void navigate(signedInHome(result.account_id))
          }
        },
      },
    )
  }, [code, state, mutate, navigate])

  if (missing || callback.isError) {
    // An address Google has not verified is refused (403 email_not_verified): say so.
    const unverified = isApiError(callback.error) && callback.error.code === 'email_not_verified'
    return (
      <AuthLayout title={t('callback.failed_title')}>
        <div className="grid gap-4 text-sm">
          <TriangleAlert className="h-10 w-10 text-destructive" aria-hidden="true" />
          <p role="alert">
            {isApiError(callback.error) && callback.error.code === 'invitation_email_mismatch'
              ? t('callback.invitation_mismatch')
              : t(unverified ? 'callback.email_not_verified' : 'callback.failed_text')}
          </p>
          <Link className={buttonVariants()} to="/signin">{t('back_to_signin')}</Link>
        </div>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout title={t('callback.processing_title')}>
      <div className="flex items-center gap-3 text-sm" role="status">
        <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
        {t('callback.processing_text')}
      </div>
    </AuthLayout>
  )
}
