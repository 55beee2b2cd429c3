import { useState } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { buttonVariants } from '@/components/ui/button'
import { FactorForm, type FactorInput } from '@/components/factor-form'
import { pendingChallenge, useSigninMfa } from '../api/signin-mfa'
import { safeRedirect, signedInHome } from '../api/session-schema'
import { AuthLayout } from './auth-layout'
import { challengePasskeyOptions } from '@/lib/passkey-assertion'
import { PasskeyFactorButton } from '@/components/passkey-factor-button'

/**
 * The sign-in's second step (/signin/verify): the challenge of a password or
 * Google sign-in met with the authenticator app's code or a recovery code,
 * then the dashboard (or the page the sign-in was to return to).
 */
export function SigninVerifyPage() {
  const { t } = useTranslation('mfa')
  const navigate = useNavigate()
  const [challenge] = useState(pendingChallenge)
  const verify = useSigninMfa()

  if (!challenge) {
    return (
      <AuthLayout title={t('challenge.title')}>
        <div className="grid gap-4 text-sm">
          <p role="alert">{t('challenge.expired')}</p>
          <Link className={buttonVariants()} to="/signin">{t('challenge.back')}</Link>
        </div>
      </AuthLayout>
    )
  }
  const recovery = challenge.methods.includes('recovery_code')
  // Checked again: sessionStorage is only as trustworthy as the page that wrote it.
  const back = safeRedirect(challenge.redirect)
  const meet = (input: FactorInput) =>
    verify.mutate(
      { challenge: challenge.challenge, ...input },
      {
        onSuccess: (session) => {
          if (back) void navigate({ href: back })
          else void navigate(signedInHome(session.account_id))
        },
      },
    )

  return (
    <AuthLayout title={t('challenge.title')}>
      <FactorForm
        id="signin-factor"
        allowRecovery={recovery}
        allowCode={challenge.methods.includes('totp')}
        pending={verify.isPending}
        error={verify.isError ? t('challenge.failed') : null}
        onSubmit={meet}
        extra={
          challenge.methods.includes('webauthn') ? (
            <PasskeyFactorButton
              options={() => challengePasskeyOptions(challenge.challenge)}
              onAnswer={(webauthn) => meet({ webauthn })}
              pending={verify.isPending}
            />
          ) : null
        }
      />
      <p className="mt-4 text-center text-sm">
        <Link to="/signin" search={back ? { redirect: back } : {}} className="text-primary underline-offset-4 hover:underline">
          {t('challenge.back')}
        </Link>
      </p>
    </AuthLayout>
  )
}
