import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { FormDialogForm, formDialog } from '@/components/form-dialog'
import { FormField } from '@/components/form-field'
import { Input } from '@/components/ui/input'
import { NativeSelect } from '@/components/ui/native-select'
import { isApiError } from '@/lib/api-client'
import { applyFieldErrors } from '@/lib/form-errors'
import { INVITABLE_ROLES } from '@/lib/roles'
import { emailSchema } from '@/lib/validators'
import type { useInvite } from '../api/invitations'

const schema = v.object({ email: emailSchema, role: v.picklist(INVITABLE_ROLES) })

/**
 * What a refused invitation means, as an i18n key for the form (null when
 * a field shows it): a full team, too many invitations, or the popup's
 * text for the rest. The e-mail's own conflicts (already_member,
 * already_invited) go on the field.
 */
export function inviteErrorKey(error: unknown): string | null {
  if (!isApiError(error)) return null
  if (error.code === 'seat_limit') return 'team:invite.seat_limit'
  if (error.status === 429) return 'team:invite.too_many'
  return null
}

/**
 * The invitation's dialog (invite-dialog.tsx draws its button): a chunk of
 * its own with react-hook-form and the dialogs, fetched when the team page
 * is idle or on the first sign of intent (issue 37 item 9).
 */
export const InviteFormDialog = formDialog(InviteForm)

/** The invitation's fields, mounted while the dialog is open. */
function InviteForm({
  accountName,
  invite,
  onClose,
  onInvited,
}: {
  accountName: string
  invite: ReturnType<typeof useInvite>
  onClose: () => void
  onInvited: (notice: string) => void
}) {
  const { t } = useTranslation('team')
  const form = useForm({ resolver: valibotResolver(schema), defaultValues: { email: '', role: 'member' as const } })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await invite.mutateAsync(values)
      onInvited(t('invite.sent', { email: values.email }))
    } catch (error) {
      if (isApiError(error) && error.status === 409 && error.fields.email) {
        form.setError('email', { type: 'server', message: `team:invite.${error.fields.email}` }, { shouldFocus: true })
        return
      }
      applyFieldErrors(error, form.setError, ['email', 'role'])
    }
  })

  const fieldShown = isApiError(invite.error) && Object.keys(invite.error.fields).length > 0
  const messageKey = inviteErrorKey(invite.error)

  return (
    <FormDialogForm
      title={t('invite.title')}
      description={t('invite.description', { account: accountName })}
      onSubmit={onSubmit}
      pending={invite.isPending}
      onCancel={onClose}
      cancelLabel={t('invite.cancel')}
      submitLabel={t('invite.submit')}
    >
      <FormField id="invite-email" label={t('invite.email')} error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="off" {...form.register('email')} />}
      </FormField>
      <FormField id="invite-role" label={t('invite.role')} error={errors.role?.message} hint={t('invite.role_hint')}>
        {(control) => (
          <NativeSelect {...control} {...form.register('role')}>
            {INVITABLE_ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`roles.${role}`)}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      {invite.error && !fieldShown ? <FormError error={invite.error} messageKey={messageKey ?? undefined} /> : null}
    </FormDialogForm>
  )
}
