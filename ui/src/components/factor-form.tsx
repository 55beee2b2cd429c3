import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import type { PasskeyAnswer } from '@/lib/webauthn'

/** A second factor given: the app's code, a recovery code or a passkey's answer. */
export type FactorInput = { code: string } | { recovery_code: string } | { webauthn: PasskeyAnswer }

/** An authenticator app's code: one-time-code autofill, the numeric keyboard. */
export function CodeInput(props: React.ComponentProps<typeof Input>) {
  return <Input autoComplete="one-time-code" inputMode="numeric" pattern="[0-9 ]*" maxLength={8} {...props} />
}

/**
 * The second factor asked for: the authenticator app's 6 digits
 * (one-time-code, numeric keyboard) or, switched to, a recovery code. Used by
 * the sign-in challenge, the step-up dialog and the account's policy screen.
 * `error` is shown in an aria-live region tied to the field.
 */
export function FactorForm({
  id,
  onSubmit,
  pending,
  error,
  allowRecovery = true,
  allowCode = true,
  submitLabel,
  extra,
}: {
  id: string
  onSubmit: (input: FactorInput) => void
  pending: boolean
  error?: string | null
  allowRecovery?: boolean
  /** Whether the user has an authenticator app: without one, only a recovery code is typed. */
  allowCode?: boolean
  submitLabel?: ReactNode
  /** More ways to meet the factor, under the switch ("Use a passkey", a Cancel button). */
  extra?: ReactNode
}) {
  const { t } = useTranslation('mfa')
  const [recovery, setRecovery] = useState(!allowCode)
  const [value, setValue] = useState('')
  const fieldId = `${id}-${recovery ? 'recovery' : 'code'}`
  const errorId = `${id}-error`

  // Nothing to type (a passkey only, its recovery codes used up): the other ways alone.
  if (!allowCode && !allowRecovery) return <div className="grid gap-3">{extra}</div>

  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    const typed = value.trim()
    if (!typed) return
    onSubmit(recovery ? { recovery_code: typed } : { code: typed.replace(/\s/g, '') })
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-3">
      <p className="text-sm text-muted-foreground">{t(recovery ? 'challenge.recovery_text' : 'challenge.text')}</p>
      <div className="grid gap-1.5">
        <Label htmlFor={fieldId}>{t(recovery ? 'challenge.recovery_code' : 'challenge.code')}</Label>
        {recovery ? (
          <Input
            key="recovery"
            id={fieldId}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            autoFocus
          />
        ) : (
          <CodeInput
            key="code"
            id={fieldId}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            autoFocus
          />
        )}
      </div>
      <div id={errorId} aria-live="assertive" className="text-sm text-destructive">
        {error ? <p role="alert">{error}</p> : null}
      </div>
      <Button type="submit" loading={pending}>
        {submitLabel ?? t('challenge.submit')}
      </Button>
      {allowRecovery && allowCode ? (
        <Button
          type="button"
          variant="link"
          size="flush"
          className="justify-self-start"
          onClick={() => {
            setRecovery(!recovery)
            setValue('')
          }}
        >
          {t(recovery ? 'challenge.use_code' : 'challenge.use_recovery')}
        </Button>
      ) : null}
      {extra}
    </form>
  )
}
