import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import { KeyRound, Pencil, Trash2 } from 'lucide-react'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/lib/api-client'
import { applyFieldErrors } from '@/lib/form-errors'
import { formatDate } from '@/lib/format'
import { type Passkey, passkeyNameSchema, useRenamePasskey } from '../api/passkeys'

const renameSchema = v.object({ name: passkeyNameSchema })

/**
 * One passkey: its name, when it was added and last used, a rename in
 * place (Escape cancels; focus goes back to the Rename button) and a
 * Remove button (the card asks to confirm).
 */
export function PasskeyRow({ passkey, onRenamed, onRemove }: { passkey: Passkey; onRenamed: (name: string) => void; onRemove: () => void }) {
  const { t } = useTranslation('passkeys')
  const [editing, setEditing] = useState(false)
  const renameButtonId = `passkey-rename-button-${passkey.id}`
  const rename = useRenamePasskey()
  const form = useForm({ resolver: valibotResolver(renameSchema), defaultValues: { name: passkey.name } })
  const { errors } = form.formState
  const stop = () => {
    setEditing(false)
    rename.reset()
    form.reset({ name: passkey.name })
    requestAnimationFrame(() => document.getElementById(renameButtonId)?.focus())
  }
  const onSubmit = form.handleSubmit(async ({ name }) => {
    try {
      const renamed = await rename.mutateAsync({ id: passkey.id, name })
      onRenamed(renamed.name)
      form.reset({ name: renamed.name })
      stop()
    } catch (error) {
      applyFieldErrors(error, form.setError, ['name'])
    }
  })
  const fieldShown = isApiError(rename.error) && !!rename.error.fields.name

  return (
    <li className="grid gap-2 rounded-md border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-0.5">
          <span className="flex items-center gap-2 text-sm font-medium break-all">
            <KeyRound className="h-4 w-4 shrink-0" aria-hidden="true" />
            {passkey.name}
          </span>
          <span className="text-xs text-muted-foreground">
            {t('card.added', { date: formatDate(passkey.created_at) })},{' '}
            {passkey.last_used_at ? t('card.last_used', { date: formatDate(passkey.last_used_at) }) : t('card.never_used')}
          </span>
        </div>
        {editing ? null : (
          <div className="flex gap-2">
            <Button
              id={renameButtonId}
              variant="outline"
              size="sm"
              aria-label={t('rename.button_label', { name: passkey.name })}
              onClick={() => setEditing(true)}
            >
              <Pencil aria-hidden="true" />
              {t('rename.button')}
            </Button>
            <Button variant="outline" size="sm" aria-label={t('remove.button_label', { name: passkey.name })} onClick={onRemove}>
              <Trash2 aria-hidden="true" />
              {t('remove.button')}
            </Button>
          </div>
        )}
      </div>
      {editing ? (
        <form
          onSubmit={onSubmit}
          noValidate
          className="grid gap-2"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault()
              stop()
            }
          }}
        >
          <FormField id={`passkey-rename-${passkey.id}`} label={t('rename.label', { name: passkey.name })} error={errors.name?.message}>
            {(control) => <Input {...control} autoFocus autoComplete="off" {...form.register('name')} />}
          </FormField>
          {rename.error && !fieldShown ? <FormError error={rename.error} /> : null}
          <div className="flex gap-2">
            <Button type="submit" size="sm" loading={rename.isPending}>
              {t('rename.save')}
            </Button>
            <Button type="button" variant="outline" size="sm" onClick={stop} disabled={rename.isPending}>
              {t('rename.cancel')}
            </Button>
          </div>
        </form>
      ) : null}
    </li>
  )
}
