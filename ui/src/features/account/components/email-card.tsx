import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useQueryClient } from '@tanstack/react-query'
import { Trans, useTranslation } from 'react-i18next'
import { MailCheck } from 'lucide-react'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { type User } from '@/lib/api/get-account'
import { useUpdateUser } from '@/lib/api/update-user'
import { applyFieldErrors } from '@/lib/form-errors'
import { rememberEmail } from '@/lib/session'
import { emailSchema, msg } from '@/lib/validators'
import { queryKeys } from '@/lib/query-keys'

// The current password proves a stolen session alone cannot move the
// account to another address (ARCHITECTURE §4, re-authentication).
const schema = v.object({ email: emailSchema, current_password: v.pipe(v.string(), v.nonEmpty(msg.passwordRequired)) })

/** E-mail card: change with a confirm-email dialog; read-only for Google users. */
export function EmailCard({ accountId, user }: { accountId: string; user: User }) {
  const { t } = useTranslation('account')
  const queryClient = useQueryClient()
  const update = useUpdateUser(accountId)
  const [confirmFor, setConfirmFor] = useState<string | null>(null)
  const form = useForm({ resolver: valibotResolver(schema), defaultValues: { email: user.email, current_password: '' } })

  const onSubmit = form.handleSubmit(async ({ email, current_password }) => {
    if (email === user.email) return
    try {
      await update.mutateAsync({ email, current_password })
      rememberEmail(email)
      setConfirmFor(email)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['email', 'current_password'])
    }
  })

  const closeDialog = () => {
    setConfirmFor(null)
    void queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('email.title')}</CardTitle>
        <CardDescription>{user.social_login ? t('email.social_description') : t('email.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {user.social_login ? (
          <div className="grid gap-1.5">
            <label htmlFor="email-readonly" className="text-sm font-medium">
              {t('email.label')}
            </label>
            <div className="flex items-center gap-2">
              <Input id="email-readonly" value={user.email} readOnly aria-describedby="email-provider" />
              <span id="email-provider" className="rounded-full border px-2 py-0.5 text-xs font-medium">
                Google
              </span>
            </div>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="grid gap-3">
            <FormField id="email" label={t('email.label')} error={form.formState.errors.email?.message}>
              {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
            </FormField>
            <FormField
              id="email-current-password"
              label={t('email.current_password')}
              error={form.formState.errors.current_password?.message}
            >
              {(control) => (
                <Input {...control} type="password" autoComplete="current-password" {...form.register('current_password')} />
              )}
            </FormField>
            <FormError error={update.error} />
            <div>
              {/* Solid only once the address was changed. */}
              <Button type="submit" variant={form.formState.isDirty ? 'default' : 'outline'} loading={update.isPending}>
                {t('email.submit')}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
      <Dialog open={confirmFor !== null} onOpenChange={(open) => !open && closeDialog()}>
        <DialogContent closeLabel={t('common:actions.close')}>
          <DialogHeader>
            <MailCheck className="h-8 w-8 text-primary" aria-hidden="true" />
            <DialogTitle>{t('email.confirm_title')}</DialogTitle>
            <DialogDescription>
              <Trans t={t} i18nKey="email.confirm_text" values={{ email: confirmFor }} components={{ strong: <strong /> }} />
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button>{t('email.confirm_ok')}</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  )
}
