import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { Link, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { CheckCircle2, Loader2, TriangleAlert } from 'lucide-react'
import * as v from 'valibot'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { FormError } from '@/components/form-error'
import { useRequestActivationToken } from '@/lib/api/activation-token'
import { ACTIVATION_REDIRECT_MS } from '@/lib/constants'
import { rememberedEmail } from '@/lib/session'
import { emailSchema } from '@/lib/validators'
import { useActivateUser } from '../api/activate-user'
import { dashboardHome } from '../api/session-schema'
import { AuthLayout } from './auth-layout'

/** Activates the user with the mail's token, then goes to the dashboard after 2 s. */
export function ConfirmEmailPage({ token }: { token?: string }) {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const activate = useActivateUser()
  const started = useRef<string | null>(null)
  const { mutate } = activate

  useEffect(() => {
    if (!token || started.current === token) return
    started.current = token
    mutate(token)
  }, [token, mutate])

  const accountId = activate.data?.account_id
  useEffect(() => {
    if (!accountId) return
    const timer = window.setTimeout(() => void navigate(dashboardHome(accountId)), ACTIVATION_REDIRECT_MS)
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

  if (activate.isSuccess) {
    return (
      <AuthLayout title={t('confirm_email.success_title')}>
        <div className="grid gap-4 text-sm" role="status">
          <CheckCircle2 className="h-10 w-10 text-green-600" aria-hidden="true" />
          <p>{t('confirm_email.success_text')}</p>
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
