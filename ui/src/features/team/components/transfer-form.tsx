import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { needsStepUp, StepUpPrompt } from '@/components/step-up-prompt'
import { FormDialogForm, formDialog } from '@/components/form-dialog'
import { FormField } from '@/components/form-field'
import { Input } from '@/components/ui/input'
import { NativeSelect } from '@/components/ui/native-select'
import { isApiError } from '@/lib/api-client'
import type { Member } from '@/lib/api/get-members'
import { applyFieldErrors } from '@/lib/form-errors'
import { displayName } from '@/lib/names'
import { msg } from '@/lib/validators'
import type { useTransferOwnership } from '../api/transfer-ownership'

const memberField = v.pipe(v.string(), v.nonEmpty(msg.fieldRequired))
// The current password re-authenticates the owner (ARCHITECTURE §4); a
// Google user may have none, so for them it is optional and the server
// says when one is needed (as the password card does).
const withPassword = v.object({ user_id: memberField, current_password: v.pipe(v.string(), v.nonEmpty(msg.passwordRequired)) })
const withOptionalPassword = v.object({ user_id: memberField, current_password: v.string() })

/**
 * The ownership transfer's dialog (ownership-card.tsx draws its button): a
 * chunk of its own with react-hook-form and the dialogs, fetched when the
 * team page is idle or on the first sign of intent (issue 37 item 9).
 */
export const TransferFormDialog = formDialog(TransferForm)

/** The transfer's fields (the new owner and the current password), mounted while the dialog is open. */
function TransferForm({
  accountName,
  socialLogin,
  candidates,
  transfer,
  onClose,
  onDone,
}: {
  accountName: string
  socialLogin: boolean
  candidates: readonly Member[]
  transfer: ReturnType<typeof useTransferOwnership>
  onClose: () => void
  onDone: (notice: string) => void
}) {
  const { t } = useTranslation('team')
  const form = useForm({
    resolver: valibotResolver(socialLogin ? withOptionalPassword : withPassword),
    defaultValues: { user_id: '', current_password: '' },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await transfer.mutateAsync(values)
      const owner = candidates.find((m) => m.user_id === values.user_id)
      onDone(t('ownership.done', { name: owner ? displayName(owner) : '', account: accountName }))
    } catch (error) {
      applyFieldErrors(error, form.setError, ['user_id', 'current_password'])
    }
  })

  const fieldShown = isApiError(transfer.error) && transfer.error.status === 422

  return (
    <FormDialogForm
      title={t('ownership.dialog.title')}
      description={t('ownership.dialog.description')}
      onSubmit={onSubmit}
      pending={transfer.isPending}
      onCancel={onClose}
      cancelLabel={t('ownership.dialog.cancel')}
      submitLabel={t('ownership.dialog.confirm')}
    >
      <FormField id="transfer-member" label={t('ownership.dialog.member')} error={errors.user_id?.message}>
        {(control) => (
          <NativeSelect {...control} {...form.register('user_id')}>
            <option value="">{t('ownership.dialog.choose')}</option>
            {candidates.map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {displayName(m)} ({m.email})
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      <FormField
        id="transfer-password"
        label={socialLogin ? t('ownership.dialog.password_optional') : t('ownership.dialog.password')}
        error={errors.current_password?.message}
      >
        {(control) => <Input {...control} type="password" autoComplete="current-password" {...form.register('current_password')} />}
      </FormField>
      {needsStepUp(transfer.error) ? (
        <StepUpPrompt />
      ) : transfer.error && !fieldShown ? (
        <FormError error={transfer.error} />
      ) : null}
    </FormDialogForm>
  )
}
