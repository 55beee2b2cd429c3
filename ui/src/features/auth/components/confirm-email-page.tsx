import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { Link, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { CheckCircle2, Loader2, TriangleAlert } from 'lucide-react'
import * as v from 'valibot'
import { Button, buttonVariants } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { FormError } from '@/components/form-error'
import { useRequestActivationToken } from '@/lib/api/activation-token'
import { ACTIVATION_REDIRECT_MS } from '@/lib/constants'
import {
  getStoredAccountId,
  getToken,
  hasValidSession,
  rememberedEmail,
  saveSession,
  tokenSubject,
  type Session,
} from '@/lib/session'
import { emailSchema } from '@/lib/validators'
import { useActivateUser, type ActivationResult } from '../api/activate-user'
import { dashboardHome, signedInHome } from '../api/session-schema'
import { AuthLayout } from './auth-layout'

/**
 * Activates the user with the mail's token. In the browser that signed up the
 * answer carries a session: it is kept and the dashboard opens after 2 s, but
 * a session of another user in this browser is never replaced without asking.
 * Anywhere else the address is confirmed and the user is asked to sign in.
 */
export function ConfirmEmailPage({ token }: { token?: string }) {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const activate = useActivateUser()
  const started = useRef<string | null>(null)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const { mutate } = activate

  useEffect(() => {
    if (!token || started.current === token) return
    started.current = token
    mutate(token, { onSuccess: (result) => setOutcome(decide(result)) })
  }, [token, mutate])

  // "" for a user being deleted who belongs to no account (issue 35): their deletion's page.
  const accountId = outcome?.kind === 'signed_in' ? outcome.accountId : undefined
  useEffect(() => {
    if (accountId === undefined) return
    const timer = window.setTimeout(() => void navigate(signedInHome(accountId)), ACTIVATION_REDIRECT_MS)
    return () => window.clearTimeout(timer)
  }, [accountId, navigate])

  if (!token || activate.isError) {
    return (
      <AuthLayout title={t('confirm_email.invalid_title')}>
        <div className="grid gap-4 text-sm">
          <TriangleAlert className="h-10 w-10 text-destructive" aria-hidden="true" />
          <p role="alert">{t('confirm_email.invalid_text')}</p>
          <ResendActivationForm />
          <Link to="/signin" className="text-center text-primary underline-offset-4 hover:underline">
            {t('back_to_signin')}
          </Link>
        </div>
      </AuthLayout>
    )
  }

  if (outcome?.kind === 'signed_in') {
    return (
      <AuthLayout title={t('confirm_email.success_title')}>
        <div className="grid gap-4 text-sm" role="status">
          <CheckCircle2 className="h-10 w-10 text-green-600" aria-hidden="true" />
          <p>{t('confirm_email.success_text')}</p>
        </div>
      </AuthLayout>
    )
  }

  if (outcome?.kind === 'confirmed') {
    const current = hasValidSession() ? getStoredAccountId() : null
    return (
      <AuthLayout title={t('confirm_email.success_title')}>
        <div className="grid gap-4 text-sm">
          <CheckCircle2 className="h-10 w-10 text-green-600" aria-hidden="true" />
          <p role="status">{t('confirm_email.confirmed_sign_in')}</p>
          {current ? (
            <Link className={buttonVariants()} {...dashboardHome(current)}>{t('confirm_email.go_to_dashboard')}</Link>
          ) : (
            <Link className={buttonVariants()} to="/signin">{t('confirm_email.sign_in')}</Link>
          )}
        </div>
      </AuthLayout>
    )
  }

  if (outcome?.kind === 'other_user') {
    const keep = () => {
      void endSession(outcome.session.token)
      const current = getStoredAccountId()
      void navigate(current ? dashboardHome(current) : { to: '/' })
    }
    const switchUser = () => {
      saveSession(outcome.session)
      setOutcome({ kind: 'signed_in', accountId: outcome.session.account_id })
    }
    return (
      <AuthLayout title={t('confirm_email.success_title')}>
        <div className="grid gap-4 text-sm">
          <CheckCircle2 className="h-10 w-10 text-green-600" aria-hidden="true" />
          <p role="alert">{t('confirm_email.other_user_text')}</p>
          <Button onClick={switchUser}>{t('confirm_email.switch_user')}</Button>
          <Button variant="outline" onClick={keep}>{t('confirm_email.keep_user')}</Button>
        </div>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout title={t('confirm_email.processing_title')}>
      <div className="flex items-center gap-3 text-sm" role="status">
        <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
        {t('confirm_email.processing_text')}
      </div>
    </AuthLayout>
  )
}

type Outcome =
  | { kind: 'signed_in'; accountId: string }
  | { kind: 'confirmed' }
  | { kind: 'other_user'; session: Session }

/**
 * What an activation answer means here: no session (another browser) → sign
 * in; a session while another user is signed in in this browser → ask; else
 * the session is kept.
 */
function decide(result: ActivationResult): Outcome {
  if (!result.token) return { kind: 'confirmed' }
  const session = { token: result.token, token_expiry: result.token_expiry, account_id: result.account_id }
  const current = hasValidSession() ? tokenSubject(getToken()) : null
  if (current && current !== tokenSubject(result.token)) return { kind: 'other_user', session }
  saveSession(session)
  return { kind: 'signed_in', accountId: result.account_id }
}

/** Ends a session this browser does not keep (best effort). */
function endSession(token: string) {
  return fetch('/v1/auth/signout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined)
}

const resendSchema = v.object({ email: emailSchema })

function ResendActivationForm() {
  const { t } = useTranslation('auth')
  const resend = useRequestActivationToken()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const form = useForm({
    resolver: valibotResolver(resendSchema),
    defaultValues: { email: rememberedEmail() },
  })
  const onSubmit = form.handleSubmit((values) =>
    resend.mutate(values.email, { onSuccess: () => setSentTo(values.email) }),
  )
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-3">
      <FormField id="resend-email" label={t('fields.email')} error={form.formState.errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
      </FormField>
      <div role="status" aria-live="polite">
        {sentTo && <p className="font-medium text-green-700">{t('registered.resent')}</p>}
      </div>
      <FormError error={resend.error} />
      <Button type="submit" loading={resend.isPending}>
        {t('confirm_email.request_new_link')}
      </Button>
    </form>
  )
}
