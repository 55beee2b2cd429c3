import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { CheckCircle2 } from 'lucide-react'
import * as v from 'valibot'
import { Button, buttonVariants } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { FormError } from '@/components/form-error'
import { ApiError, isApiError } from '@/lib/api-client'
import { reportError } from '@/lib/error-store'
import { applyFieldErrors } from '@/lib/form-errors'
import { msg, passwordSchema } from '@/lib/validators'
import { DEAD_LINK_STATUSES, useResetPassword } from '../api/reset-password'
import { AuthLayout } from './auth-layout'

// The repeat field is compared in the submit handler, not the schema: a
// mismatch is error 444 'Passwords do not match' (SPEC §5/§8) and shows the popup.
const resetSchema = v.object({ password: passwordSchema, repeat_password: v.string() })

export function ResetPasswordPage({ token }: { token?: string }) {
  const { t } = useTranslation('auth')
  const reset = useResetPassword()
  const form = useForm({
    resolver: valibotResolver(resetSchema),
    defaultValues: { password: '', repeat_password: '' },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(async (values) => {
    if (values.password !== values.repeat_password) {
      form.setError('repeat_password', { type: 'mismatch', message: msg.passwordsDoNotMatch }, { shouldFocus: true })
      reportError(new ApiError(444, 'passwords_do_not_match', 'Passwords do not match'))
      return
    }
    try {
      await reset.mutateAsync({ password: values.password, token: token ?? '' })
    } catch (error) {
      applyFieldErrors(error, form.setError, ['password'])
    }
  })

  const deadLink =
    isApiError(reset.error) && (DEAD_LINK_STATUSES as readonly number[]).includes(reset.error.status)
  if (!token || deadLink) {
    return (
      <AuthLayout title={t('reset_password.invalid_title')}>
        <div className="grid gap-4 text-sm">
          <p role="alert">{t(deadLink ? 'reset_password.used_text' : 'reset_password.invalid_text')}</p>
          <Link to="/auth/request-password-reset" className="text-primary underline-offset-4 hover:underline">
            {t('reset_password.request_new')}
          </Link>
        </div>
      </AuthLayout>
    )
  }

  if (reset.isSuccess) {
    return (
      <AuthLayout title={t('reset_password.success_title')}>
        <div className="grid gap-4 text-sm" role="status">
          <CheckCircle2 className="h-10 w-10 text-green-600" aria-hidden="true" />
          <p>{t('reset_password.success_text')}</p>
          <Link className={buttonVariants()} to="/signin">{t('back_to_signin')}</Link>
        </div>
      </AuthLayout>
    )
  }

  return (
    <AuthLayout title={t('reset_password.title')}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <FormField
          id="reset-password"
          label={t('fields.new_password')}
          error={errors.password?.message}
          hint={t('password_rules')}
        >
          {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />}
        </FormField>
        <FormField id="reset-repeat-password" label={t('fields.repeat_password')} error={errors.repeat_password?.message}>
          {(control) => (
            <Input {...control} type="password" autoComplete="new-password" {...form.register('repeat_password')} />
          )}
        </FormField>
        <FormError error={reset.error} />
        <Button type="submit" loading={reset.isPending}>
          {t('reset_password.submit')}
        </Button>
        <Link to="/signin" className="text-center text-sm text-primary underline-offset-4 hover:underline">
          {t('back_to_signin')}
        </Link>
      </form>
    </AuthLayout>
  )
}
