import { Controller, useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { Link, useNavigate } from '@tanstack/react-router'
import { Trans, useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Input } from '@/components/ui/input'
import { FieldError, FormField } from '@/components/form-field'
import { FormError } from '@/components/form-error'
import { isApiError } from '@/lib/api-client'
import { applyFieldErrors } from '@/lib/form-errors'
import { currentLanguage } from '@/lib/i18n'
import { rememberEmail, saveSession } from '@/lib/session'
import { emailSchema, passwordSchema, requiredText, termsSchema } from '@/lib/validators'
import { useSignup } from '../api/signup'
import { useOidcSignup } from '../api/oidc-signup'
import { dashboardHome } from '../api/session-schema'
import { GoogleButton } from './google-button'
import { OrDivider } from './or-divider'

export const signupSchema = v.object({
  firstname: requiredText,
  lastname: requiredText,
  email: emailSchema,
  password: passwordSchema,
  opt_in_terms_of_use: termsSchema,
  opt_in_marketing: v.boolean(),
})

const FIELDS = ['firstname', 'lastname', 'email', 'password', 'opt_in_terms_of_use', 'opt_in_marketing'] as const

/** A team invitation the form signs up from: its token and the address it was sent to. */
export interface SignupInvitation {
  token: string
  email: string
}

/**
 * What an invited sign-up's refusal means, as an auth i18n key (null for the
 * generic text): the address has a user (sign in instead), the team is full,
 * or the invitation is no longer valid.
 */
export function invitedSignupErrorKey(error: unknown): string | null {
  if (!isApiError(error)) return null
  if (error.code === 'seat_limit') return 'auth:invitation.team_full_short'
  if (error.status === 409) return 'auth:invitation.exists'
  if (error.status === 404) return 'auth:invitation.invalid_title'
  return null
}

/**
 * Sign-up. With `invitation` (the accept page) the address is the invited
 * one, read-only; the new user joins the inviting account at once, signed
 * in, and lands in its dashboard.
 */
export function SignupForm({ invitation, signinLink }: { invitation?: SignupInvitation; signinLink?: string }) {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const signup = useSignup(Boolean(invitation))
  const oidcSignup = useOidcSignup()
  const form = useForm({
    resolver: valibotResolver(signupSchema),
    defaultValues: {
      firstname: '',
      lastname: '',
      email: invitation?.email ?? '',
      password: '',
      opt_in_terms_of_use: false,
      opt_in_marketing: false,
    },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const result = await signup.mutateAsync({
        ...values,
        preferred_language: currentLanguage(),
        root_domain: window.location.origin,
        ...(invitation ? { email: invitation.email, invitation_token: invitation.token } : {}),
      })
      rememberEmail(result.email)
      if (invitation && result.token) {
        saveSession({ token: result.token, token_expiry: result.token_expiry, account_id: result.account_id })
        await navigate(dashboardHome(result.account_id))
        return
      }
      await navigate({ to: '/registered', search: { created: result.email } })
    } catch (error) {
      applyFieldErrors(error, form.setError, FIELDS)
    }
  })

  // Social sign-up needs the terms accepted first (SPEC §4).
  const onGoogle = async () => {
    const termsOk = await form.trigger('opt_in_terms_of_use', { shouldFocus: true })
    if (!termsOk) return
    oidcSignup.mutate({
      opt_in_terms_of_use: true,
      opt_in_marketing: form.getValues('opt_in_marketing'),
      preferred_language: currentLanguage(),
      root_domain: window.location.origin,
      invitation_token: invitation?.token,
    })
  }

  const invitedErrorKey = invitation ? invitedSignupErrorKey(signup.error) : null

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={t('signup.title')}>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField id="signup-firstname" label={t('fields.firstname')} error={errors.firstname?.message}>
          {(control) => <Input {...control} autoComplete="given-name" {...form.register('firstname')} />}
        </FormField>
        <FormField id="signup-lastname" label={t('fields.lastname')} error={errors.lastname?.message}>
          {(control) => <Input {...control} autoComplete="family-name" {...form.register('lastname')} />}
        </FormField>
      </div>
      <FormField
        id="signup-email"
        label={t('fields.email')}
        error={errors.email?.message}
        hint={invitation ? t('invitation.email_locked') : undefined}
      >
        {(control) => (
          <Input {...control} type="email" autoComplete="email" readOnly={Boolean(invitation)} {...form.register('email')} />
        )}
      </FormField>
      <FormField
        id="signup-password"
        label={t('fields.password')}
        error={errors.password?.message}
        hint={t('password_rules')}
      >
        {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />}
      </FormField>

      <Controller
        control={form.control}
        name="opt_in_terms_of_use"
        render={({ field }) => (
          <div className="grid gap-1">
            <div className="flex items-start gap-2">
              <Checkbox
                id="signup-terms"
                ref={field.ref}
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
                aria-invalid={errors.opt_in_terms_of_use ? true : undefined}
                aria-describedby={errors.opt_in_terms_of_use ? 'signup-terms-error' : undefined}
              />
              <label htmlFor="signup-terms" className="text-sm leading-tight">
                <Trans
                  t={t}
                  i18nKey="signup.accept_terms"
                  components={{ terms: <a href="/terms-of-use" className="underline" target="_blank" rel="noreferrer" /> }}
                />
              </label>
            </div>
            <FieldError id="signup-terms-error" message={errors.opt_in_terms_of_use?.message} />
          </div>
        )}
      />
      <Controller
        control={form.control}
        name="opt_in_marketing"
        render={({ field }) => (
          <div className="flex items-start gap-2">
            <Checkbox
              id="signup-marketing"
              ref={field.ref}
              checked={field.value}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
            />
            <label htmlFor="signup-marketing" className="text-sm leading-tight">
              {t('signup.opt_in_marketing')}
            </label>
          </div>
        )}
      />

      <FormError error={signup.error ?? oidcSignup.error} messageKey={invitedErrorKey ?? undefined} />
      <Button type="submit" className="w-full" loading={signup.isPending}>
        {t('signup.submit')}
      </Button>
      <OrDivider label={t('or')} />
      <GoogleButton label={t('signup.google')} loading={oidcSignup.isPending} onClick={() => void onGoogle()} />
      <p className="text-center text-sm text-muted-foreground">
        {t('signup.have_account')}{' '}
        <Link
          to="/signin"
          search={signinLink ? { redirect: signinLink } : {}}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          {t('signup.signin_link')}
        </Link>
      </p>
    </form>
  )
}
