import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { useUpdateUser } from '@/lib/api/update-user'
import { applyFieldErrors } from '@/lib/form-errors'
import { msg, passwordPairSchema } from '@/lib/validators'
import { needsStepUp, StepUpPrompt } from '@/components/step-up-prompt'

// The current password is asked for (ARCHITECTURE §4, re-authentication); a
// Google user may have none, so for them it is optional and the server says
// when one is needed.
const withCurrent = v.intersect([passwordPairSchema, v.object({ current_password: v.string() })])
const withCurrentRequired = v.intersect([
  passwordPairSchema,
  v.object({ current_password: v.pipe(v.string(), v.nonEmpty(msg.passwordRequired)) }),
])

/** Current password, then a new one with a repeat field that must match. */
export function PasswordCard({ accountId, socialLogin = false }: { accountId: string; socialLogin?: boolean }) {
  const { t } = useTranslation('account')
  const update = useUpdateUser(accountId)
  const form = useForm({
    resolver: valibotResolver(socialLogin ? withCurrent : withCurrentRequired),
    defaultValues: { current_password: '', password: '', repeat_password: '' },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(async ({ password, current_password }) => {
    try {
      await update.mutateAsync(current_password ? { password, current_password } : { password })
      form.reset()
    } catch (error) {
      applyFieldErrors(error, form.setError, ['password', 'current_password'])
    }
  })

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('password.title')}</CardTitle>
        <CardDescription>{t('password.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-3">
          <FormField
            id="current-password"
            label={socialLogin ? t('password.current_optional') : t('password.current')}
            error={errors.current_password?.message}
          >
            {(control) => (
              <Input {...control} type="password" autoComplete="current-password" {...form.register('current_password')} />
            )}
          </FormField>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <FormField id="new-password" label={t('password.new')} error={errors.password?.message}>
              {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />}
            </FormField>
            <FormField id="repeat-password" label={t('password.repeat')} error={errors.repeat_password?.message}>
              {(control) => (
                <Input {...control} type="password" autoComplete="new-password" {...form.register('repeat_password')} />
              )}
            </FormField>
          </div>
          {/* A user without a password signs in with Google again first (a step-up). */}
          {needsStepUp(update.error) ? <StepUpPrompt /> : <FormError error={update.error} />}
          <div className="flex flex-wrap items-center gap-3">
            {/* Solid only once there is something to save. */}
            <Button type="submit" variant={form.formState.isDirty ? 'default' : 'outline'} loading={update.isPending}>
              {t('password.submit')}
            </Button>
            <div role="status" aria-live="polite" className="text-sm text-green-700">
              {update.isSuccess && !form.formState.isDirty ? t('password.changed') : null}
            </div>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}
