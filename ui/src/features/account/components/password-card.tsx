import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { useUpdateUser } from '@/lib/api/update-user'
import { applyFieldErrors } from '@/lib/form-errors'
import { passwordPairSchema } from '@/lib/validators'

/** New password with a repeat field that must match. */
export function PasswordCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation('account')
  const update = useUpdateUser(accountId)
  const form = useForm({
    resolver: valibotResolver(passwordPairSchema),
    defaultValues: { password: '', repeat_password: '' },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await update.mutateAsync({ password })
      form.reset()
    } catch (error) {
      applyFieldErrors(error, form.setError, ['password'])
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
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="new-password" label={t('password.new')} error={errors.password?.message}>
              {(control) => <Input {...control} type="password" autoComplete="new-password" {...form.register('password')} />}
            </FormField>
            <FormField id="repeat-password" label={t('password.repeat')} error={errors.repeat_password?.message}>
              {(control) => (
                <Input {...control} type="password" autoComplete="new-password" {...form.register('repeat_password')} />
              )}
            </FormField>
          </div>
          <FormError error={update.error} />
          <div role="status" aria-live="polite" className="text-sm text-green-700">
            {update.isSuccess && !form.formState.isDirty ? t('password.changed') : null}
          </div>
          <div>
            <Button type="submit" loading={update.isPending}>
              {t('password.submit')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}
