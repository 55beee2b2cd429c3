import { Link, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { FormError } from '@/components/form-error'
import { isApiError } from '@/lib/api-client'
import { applyFieldErrors } from '@/lib/form-errors'
import { currentLanguage } from '@/lib/i18n'
import { useSchemaForm } from '@/lib/schema-form'
import { emailSchema, passwordSchema } from '@/lib/validators'
import { useSignin } from '../api/signin'
import { useOidcSignin } from '../api/oidc-signin'
import { safeRedirect, signedInHome } from '../api/session-schema'
import { saveChallenge } from '../api/signin-mfa'
import { GoogleButton } from './google-button'
import { PasskeySigninButton } from './passkey-signin-button'
import { OrDivider } from './or-divider'

export const signinSchema = v.object({ email: emailSchema, password: passwordSchema })

/** Sign-in; afterwards the dashboard of the last used account, or `redirect` when it is a safe same-origin path. */
export function SigninForm({ redirect }: { redirect?: string }) {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const signin = useSignin()
  const oidcSignin = useOidcSignin(redirect)
  // Not react-hook-form: /signin's JavaScript budget (README, "Bundle budget").
  const form = useSchemaForm(signinSchema, { email: '', password: '' })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const session = await signin.mutateAsync(values)
      const back = safeRedirect(redirect)
      // A second factor is due: the challenge screen, which goes on to back or the dashboard.
      if ('challenge' in session) {
        saveChallenge({ ...session, redirect: back ?? undefined })
        await navigate({ to: '/signin/verify' })
      } else if (back) await navigate({ href: back })
      else await navigate(signedInHome(session.account_id))
    } catch (error) {
      applyFieldErrors(error, form.setError, ['email', 'password'])
    }
  })

  const badCredentials = isApiError(signin.error) && signin.error.status === 401

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={t('signin.title')}>
      <FormField id="signin-email" label={t('fields.email')} error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
      </FormField>
      <FormField id="signin-password" label={t('fields.password')} error={errors.password?.message}>
        {(control) => (
          <Input {...control} type="password" autoComplete="current-password" {...form.register('password')} />
        )}
      </FormField>
      <div className="-mt-2 text-right text-sm">
        <Link to="/auth/request-password-reset" className="text-primary underline-offset-4 hover:underline">
          {t('signin.forgot_password')}
        </Link>
      </div>
      <FormError
        error={signin.error ?? oidcSignin.error}
        messageKey={badCredentials ? 'auth:signin.bad_credentials' : undefined}
      />
      <Button type="submit" className="w-full" loading={signin.isPending}>
        {t('signin.submit')}
      </Button>
      <OrDivider label={t('or')} />
      <GoogleButton
        label={t('signin.google')}
        loading={oidcSignin.isPending}
        onClick={() =>
          oidcSignin.mutate({ preferred_language: currentLanguage(), root_domain: window.location.origin })
        }
      />
      <PasskeySigninButton redirect={redirect} />
      <p className="text-center text-sm text-muted-foreground">
        {t('signin.no_account')}{' '}
        <Link to="/signup" className="font-medium text-primary underline-offset-4 hover:underline">
          {t('signin.signup_link')}
        </Link>
      </p>
    </form>
  )
}
