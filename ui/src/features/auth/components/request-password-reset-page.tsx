import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { Link } from '@tanstack/react-router'
import { Trans, useTranslation } from 'react-i18next'
import { MailCheck } from 'lucide-react'
import * as v from 'valibot'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { FormField } from '@/components/form-field'
import { FormError } from '@/components/form-error'
import { applyFieldErrors } from '@/lib/form-errors'
import { emailSchema } from '@/lib/validators'
import { useRequestPasswordReset } from '../api/password-reset-token'
import { AuthLayout } from './auth-layout'

const requestResetSchema = v.object({ email: emailSchema })

/** E-mail form; on success the form is replaced by a "link sent" message. */
export function RequestPasswordResetPage() {
  const { t } = useTranslation('auth')
  const request = useRequestPasswordReset()
  const form = useForm({ resolver: valibotResolver(requestResetSchema), defaultValues: { email: '' } })

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await request.mutateAsync(values.email)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['email'])
    }
  })

  return (
    <AuthLayout title={t('request_reset.title')} description={request.isSuccess ? undefined : t('request_reset.description')}>
      {request.isSuccess ? (
        <div className="grid gap-4 text-sm" role="status">
          <MailCheck className="h-10 w-10 text-primary" aria-hidden="true" />
          <p>
            <Trans
              t={t}
              i18nKey="request_reset.link_sent"
              values={{ email: request.variables }}
              components={{ strong: <strong /> }}
            />
          </p>
          <p className="text-muted-foreground">{t('registered.check_spam')}</p>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormField id="reset-email" label={t('fields.email')} error={form.formState.errors.email?.message}>
            {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
          </FormField>
          <FormError error={request.error} />
          <Button type="submit" loading={request.isPending}>
            {t('request_reset.submit')}
          </Button>
        </form>
      )}
      <p className="mt-4 text-center text-sm">
        <Link to="/signin" className="text-primary underline-offset-4 hover:underline">
          {t('back_to_signin')}
        </Link>
      </p>
    </AuthLayout>
  )
}
