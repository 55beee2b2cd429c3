import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import { Trash2 } from 'lucide-react'
import * as v from 'valibot'
import { FormDialog } from '@/components/form-dialog'
import { FormError } from '@/components/form-error'
import { needsStepUp, StepUpPrompt } from '@/components/step-up-prompt'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/lib/api-client'
import { type DeletionTarget, useScheduleDeletion } from '@/lib/api/deletion'
import { applyFieldErrors } from '@/lib/form-errors'
import { formatDateTime } from '@/lib/format'
import { msg } from '@/lib/validators'
import { CancelDeletionDialog } from '@/components/cancel-deletion-dialog'

// A Google user may have no password: for them it is optional and the
// server says when one is needed (as the password card does).
const withPassword = v.object({ current_password: v.pipe(v.string(), v.nonEmpty(msg.passwordRequired)) })
const withOptionalPassword = v.object({ current_password: v.string() })

/**
 * "Delete this account" (its owner) or "Delete my user": what happens, a
 * dialog that asks for the current password, and once scheduled the date
 * with a way to cancel. `kind` picks the texts and the api.
 */
export function DeletionCard({
  accountId,
  kind,
  deletionAt,
  socialLogin,
  stoppedRenewal = false,
  blockedBy = null,
}: {
  accountId: string
  kind: DeletionTarget['kind']
  deletionAt: string | null
  socialLogin: boolean
  /** The account's: scheduling it turned the auto-renewal off (the cancel offers it back). */
  stoppedRenewal?: boolean
  /** The user's: the account they own that keeps their erasure waiting. */
  blockedBy?: string | null
}) {
  const { t, i18n } = useTranslation('privacy')
  const target: DeletionTarget = kind === 'account' ? { kind, accountId } : { kind }
  const [open, setOpen] = useState(false)
  const schedule = useScheduleDeletion(target, accountId)
  const form = useForm({
    resolver: valibotResolver(socialLogin ? withOptionalPassword : withPassword),
    defaultValues: { current_password: '' },
  })
  const { errors } = form.formState
  const onOpenChange = (next: boolean) => {
    if (next) {
      form.reset()
      schedule.reset()
    }
    setOpen(next)
  }
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await schedule.mutateAsync(values.current_password)
      setOpen(false)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['current_password'])
    }
  })
  const fieldShown = isApiError(schedule.error) && schedule.error.status === 422

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>{t(`${kind}_deletion.title`)}</CardTitle>
        <CardDescription>{t(`${kind}_deletion.description`)}</CardDescription>
      </CardHeader>
      <CardContent className="grid justify-items-start gap-3">
        {deletionAt ? (
          <>
            <p role="status">{t(`${kind}_deletion.scheduled`, { date: formatDateTime(deletionAt, i18n.language) })}</p>
            {blockedBy ? <p role="alert">{t('user_deletion.blocked', { account: blockedBy })}</p> : null}
            <CancelDeletionDialog target={target} accountId={accountId} passwordOptional={socialLogin} stoppedRenewal={stoppedRenewal} />
          </>
        ) : (
          <FormDialog
            open={open}
            onOpenChange={onOpenChange}
            trigger={
              <Button variant="destructive">
                <Trash2 aria-hidden="true" />
                {t(`${kind}_deletion.button`)}
              </Button>
            }
            title={t(`${kind}_deletion.dialog.title`)}
            description={t(`${kind}_deletion.dialog.description`)}
            onSubmit={onSubmit}
            pending={schedule.isPending}
            cancelLabel={t('dialog.keep')}
            submitLabel={t(`${kind}_deletion.dialog.confirm`)}
          >
            <FormField
              id={`${kind}-deletion-password`}
              label={socialLogin ? t('dialog.password_optional') : t('dialog.password')}
              error={errors.current_password?.message}
            >
              {(control) => <Input {...control} type="password" autoComplete="current-password" {...form.register('current_password')} />}
            </FormField>
            {needsStepUp(schedule.error) ? (
              <StepUpPrompt />
            ) : schedule.error && !fieldShown ? (
              <FormError
                error={schedule.error}
                // An owner deleting themself: say what to do first.
                messageKey={isApiError(schedule.error) && schedule.error.status === 409 ? `privacy:${kind}_deletion.conflict` : undefined}
              />
            ) : null}
          </FormDialog>
        )}
      </CardContent>
    </Card>
  )
}
