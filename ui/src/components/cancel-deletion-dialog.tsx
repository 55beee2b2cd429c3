import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FormDialog } from '@/components/form-dialog'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { needsStepUp, StepUpPrompt } from '@/components/step-up-prompt'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/lib/api-client'
import { type DeletionTarget, useCancelDeletion } from '@/lib/api/deletion'
import { applyFieldErrors } from '@/lib/form-errors'
import { msg } from '@/lib/validators'

// As scheduling it: a user without a password (Google only) leaves it empty
// and the server asks for a step-up instead.
const withPassword = v.object({ current_password: v.pipe(v.string(), v.nonEmpty(msg.passwordRequired)), auto_renewal: v.boolean() })
const withOptionalPassword = v.object({ current_password: v.string(), auto_renewal: v.boolean() })

/**
 * "Cancel the deletion" (issue 35): a dialog that re-authenticates like
 * scheduling it (the current password; a Google step-up without one; the
 * second factor is asked by the api client), and for an account whose
 * scheduled deletion stopped the auto-renewal, offers it back (on by
 * default). onCancelled gets the account to open (the user's cancel
 * answers one; '' for the account's).
 */
export function CancelDeletionDialog({
  target,
  accountId,
  passwordOptional,
  stoppedRenewal = false,
  size,
  onCancelled,
}: {
  target: DeletionTarget
  /** The account the page shows ('' when the user belongs to none). */
  accountId: string
  /** The user may have no password (a Google sign-in, or not known). */
  passwordOptional: boolean
  /** Scheduling the account's deletion turned the auto-renewal off. */
  stoppedRenewal?: boolean
  size?: 'sm'
  onCancelled?: (accountId: string) => void
}) {
  const { t } = useTranslation('privacy')
  const [open, setOpen] = useState(false)
  const cancel = useCancelDeletion(target, accountId)
  const offerRenewal = target.kind === 'account' && stoppedRenewal
  const form = useForm({
    resolver: valibotResolver(passwordOptional ? withOptionalPassword : withPassword),
    defaultValues: { current_password: '', auto_renewal: offerRenewal },
  })
  const { errors } = form.formState
  const onOpenChange = (next: boolean) => {
    if (next) {
      form.reset({ current_password: '', auto_renewal: offerRenewal })
      cancel.reset()
    }
    setOpen(next)
  }
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const done = await cancel.mutateAsync({ currentPassword: values.current_password, autoRenewal: offerRenewal && values.auto_renewal })
      setOpen(false)
      onCancelled?.(done.account_id)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['current_password'])
    }
  })
  const fieldShown = isApiError(cancel.error) && cancel.error.status === 422
  const kind = target.kind
  const id = `${kind}-cancel-deletion`

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button size={size} variant="outline">
          {t(`${kind}_deletion.cancel`)}
        </Button>
      }
      title={t(`${kind}_deletion.cancel_dialog.title`)}
      description={t(`${kind}_deletion.cancel_dialog.description`)}
      onSubmit={onSubmit}
      pending={cancel.isPending}
      cancelLabel={t('dialog.back')}
      submitLabel={t(`${kind}_deletion.cancel_dialog.confirm`)}
    >
      <FormField
        id={`${id}-password`}
        label={passwordOptional ? t('dialog.password_optional') : t('dialog.password')}
        error={errors.current_password?.message}
      >
        {(control) => <Input {...control} type="password" autoComplete="current-password" {...form.register('current_password')} />}
      </FormField>
      {offerRenewal ? (
        <Controller
          control={form.control}
          name="auto_renewal"
          render={({ field }) => (
            <div className="flex items-start gap-2">
              <Checkbox
                id={`${id}-renewal`}
                ref={field.ref}
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
              />
              <label htmlFor={`${id}-renewal`} className="text-sm leading-tight">
                {t('account_deletion.cancel_dialog.auto_renewal')}
              </label>
            </div>
          )}
        />
      ) : null}
      {needsStepUp(cancel.error) ? (
        <StepUpPrompt />
      ) : cancel.error && !fieldShown ? (
        <FormError
          error={cancel.error}
          // An owner whose own deletion is scheduled: say what to do first.
          messageKey={isApiError(cancel.error) && cancel.error.status === 409 ? `privacy:${kind}_deletion.cancel_conflict` : undefined}
        />
      ) : null}
    </FormDialog>
  )
}
