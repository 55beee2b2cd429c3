import { useState } from 'react'
import { type UseFormRegisterReturn, useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { KeyRound, Plus } from 'lucide-react'
import * as v from 'valibot'
import { FormDialog } from '@/components/form-dialog'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { LoadFailed } from '@/components/load-failed'
import { needsStepUp, StepUpPrompt } from '@/components/step-up-prompt'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/lib/api-client'
import { applyFieldErrors } from '@/lib/form-errors'
import { msg } from '@/lib/validators'
import { passkeyErrorKey, passkeysSupported } from '@/lib/webauthn'
import {
  PASSKEY_NAME_MAX,
  type Passkey,
  passkeyNameSchema,
  passkeysQueryOptions,
  useAddPasskey,
  useDeletePasskey,
} from '../api/passkeys'
import { RecoveryCodes } from '@/components/recovery-codes'
import { PasskeyRow } from './passkey-row'

// A Google user may have no password: for them it is optional and the
// server asks for a step-up instead (as the other sensitive changes do).
const password = v.pipe(v.string(), v.nonEmpty(msg.passwordRequired))
const addSchema = (socialLogin: boolean) =>
  v.object({ name: passkeyNameSchema, current_password: socialLogin ? v.string() : password })
const removeSchema = (socialLogin: boolean) => v.object({ current_password: socialLogin ? v.string() : password })

/** What went wrong with a passkey action, as an alert: the browser's ceremony, a step-up, or the api. */
export function PasskeyActionError({
  error,
  fieldShown,
  conflictKey = 'passkeys:errors.exists',
}: {
  error: unknown
  fieldShown?: boolean
  /** What a 409 means here: the passkey exists (adding), or the account's policy keeps it (removing). */
  conflictKey?: string
}) {
  if (!error || fieldShown) return null
  if (needsStepUp(error)) return <StepUpPrompt />
  const key = passkeyErrorKey(error)
  if (key) return <FormError messageKey={key} />
  if (isApiError(error) && error.status === 409) return <FormError messageKey={conflictKey} />
  if (isApiError(error) && error.status === 422) return <FormError messageKey="passkeys:errors.failed" />
  return <FormError error={error} />
}

/**
 * "Passkeys" in personal details: the user's passkeys (name, added, last
 * used), each renamed inline or removed after a confirmation with the
 * password; a new one is named and confirmed with the password before the
 * browser creates it. What happened is announced in a live region.
 */
export function PasskeysCard({ socialLogin }: { socialLogin: boolean }) {
  const { t } = useTranslation('passkeys')
  const query = useQuery(passkeysQueryOptions())
  const [announcement, setAnnouncement] = useState('')
  const [removing, setRemoving] = useState<Passkey | null>(null)
  // The recovery codes that came with the first passkey, shown once.
  const [codes, setCodes] = useState<string[] | null>(null)
  const supported = passkeysSupported()

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('card.title')}</CardTitle>
        <CardDescription>{t('card.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid justify-items-start gap-3">
        {query.isPending ? (
          <p role="status" className="text-sm text-muted-foreground">
            {t('card.loading')}
          </p>
        ) : query.isError ? (
          <LoadFailed message={t('card.load_failed')} retrying={query.isFetching} onRetry={() => void query.refetch()} />
        ) : query.data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('card.empty')}</p>
        ) : (
          <ul aria-label={t('card.list')} className="grid w-full gap-2">
            {query.data.items.map((p) => (
              <PasskeyRow key={p.id} passkey={p} onRenamed={(name) => setAnnouncement(t('rename.done', { name }))} onRemove={() => setRemoving(p)} />
            ))}
          </ul>
        )}
        <p role="status" aria-live="polite" className="text-sm text-muted-foreground empty:hidden">
          {announcement}
        </p>
        {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
        {supported ? (
          <AddPasskeyDialog
            socialLogin={socialLogin}
            onAdded={(name, recoveryCodes) => {
              setAnnouncement(t(recoveryCodes ? 'add.done_with_codes' : 'add.done', { name }))
              if (recoveryCodes) setCodes(recoveryCodes)
            }}
          />
        ) : (
          <p className="text-sm text-muted-foreground">{t('card.unsupported')}</p>
        )}
        <RemovePasskeyDialog
          passkey={removing}
          socialLogin={socialLogin}
          onClose={() => setRemoving(null)}
          onRemoved={(name) => setAnnouncement(t('remove.done', { name }))}
        />
      </CardContent>
    </Card>
  )
}

/** The current password of a passkey change (optional for a Google user, who steps up instead). */
function CurrentPasswordField({
  id,
  socialLogin,
  error,
  input,
}: {
  id: string
  socialLogin: boolean
  error?: string
  input: UseFormRegisterReturn
}) {
  const { t } = useTranslation('passkeys')
  return (
    <FormField id={id} label={socialLogin ? t('add.password_optional') : t('add.password')} error={error}>
      {(control) => <Input {...control} type="password" autoComplete="current-password" {...input} />}
    </FormField>
  )
}

function AddPasskeyDialog({
  socialLogin,
  onAdded,
}: {
  socialLogin: boolean
  onAdded: (name: string, recoveryCodes?: string[]) => void
}) {
  const { t } = useTranslation('passkeys')
  const [open, setOpen] = useState(false)
  const add = useAddPasskey()
  const form = useForm({ resolver: valibotResolver(addSchema(socialLogin)), defaultValues: { name: '', current_password: '' } })
  const { errors } = form.formState
  const onOpenChange = (next: boolean) => {
    if (next) {
      form.reset()
      add.reset()
    }
    setOpen(next)
  }
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const created = await add.mutateAsync({ name: values.name, currentPassword: values.current_password })
      setOpen(false)
      onAdded(created.name, created.recovery_codes)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['name', 'current_password'])
    }
  })
  const fieldShown = isApiError(add.error) && (!!add.error.fields.name || !!add.error.fields.current_password)

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button variant="outline">
          <Plus aria-hidden="true" />
          {t('add.button')}
        </Button>
      }
      title={t('add.title')}
      description={t('add.description')}
      onSubmit={onSubmit}
      pending={add.isPending}
      cancelLabel={t('add.cancel')}
      submitLabel={t('add.submit')}
    >
      <FormField id="passkey-name" label={t('add.name')} hint={t('add.name_hint')} error={errors.name?.message}>
        {(control) => <Input {...control} autoComplete="off" maxLength={PASSKEY_NAME_MAX + 10} {...form.register('name')} />}
      </FormField>
      <CurrentPasswordField
        id="passkey-add-password"
        socialLogin={socialLogin}
        error={errors.current_password?.message}
        input={form.register('current_password')}
      />
      <PasskeyActionError error={add.error} fieldShown={fieldShown} />
    </FormDialog>
  )
}

function RemovePasskeyDialog({
  passkey,
  socialLogin,
  onClose,
  onRemoved,
}: {
  passkey: Passkey | null
  socialLogin: boolean
  onClose: () => void
  onRemoved: (name: string) => void
}) {
  const { t } = useTranslation('passkeys')
  const remove = useDeletePasskey()
  const form = useForm({ resolver: valibotResolver(removeSchema(socialLogin)), defaultValues: { current_password: '' } })
  const { errors } = form.formState
  const onOpenChange = (next: boolean) => {
    if (!next) {
      form.reset()
      remove.reset()
      onClose()
    }
  }
  const onSubmit = form.handleSubmit(async (values) => {
    if (!passkey) return
    try {
      await remove.mutateAsync({ id: passkey.id, currentPassword: values.current_password })
      onRemoved(passkey.name)
      onOpenChange(false)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['current_password'])
    }
  })
  const fieldShown = isApiError(remove.error) && !!remove.error.fields.current_password

  return (
    <FormDialog
      open={passkey !== null}
      onOpenChange={onOpenChange}
      title={
        <span className="flex items-center gap-2">
          <KeyRound className="h-4 w-4" aria-hidden="true" />
          {t('remove.title')}
        </span>
      }
      description={t('remove.description', { name: passkey?.name ?? '' })}
      onSubmit={onSubmit}
      pending={remove.isPending}
      cancelLabel={t('remove.keep')}
      submitLabel={t('remove.confirm')}
    >
      <CurrentPasswordField
        id="passkey-remove-password"
        socialLogin={socialLogin}
        error={errors.current_password?.message}
        input={form.register('current_password')}
      />
      <PasskeyActionError error={remove.error} fieldShown={fieldShown} conflictKey="passkeys:errors.policy" />
    </FormDialog>
  )
}
