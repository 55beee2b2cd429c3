import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmationDialog } from '@/components/confirmation-dialog'
import { FormError } from '@/components/form-error'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Input } from '@/components/ui/input'
import { Switch } from '@/components/ui/switch'
import { StepUpPrompt, needsStepUp } from '@/components/step-up-prompt'
import { isApiError } from '@/lib/api-client'
import { useSetRequireMfa } from '@/lib/api/update-account'

/**
 * The owner's switch (issue 29): require two-factor sign-in of every member,
 * confirmed in a dialog either way. Turning it on needs the owner's own
 * second factor (409: said here). Turning it off re-authenticates like removing a factor
 * (issue 35): the dialog asks for the current password, or a user without one (Google
 * sign-in) is offered the step-up.
 */
export function MfaPolicyCard({ accountId, on, hasPassword }: { accountId: string; on: boolean; hasPassword: boolean }) {
  const { t } = useTranslation('mfa')
  const set = useSetRequireMfa(accountId)
  const [asking, setAsking] = useState(false)
  const [password, setPassword] = useState('')
  const needsOwn = isApiError(set.error) && set.error.status === 409
  const wrongPassword = isApiError(set.error) && set.error.status === 422
  const askPassword = on && hasPassword
  const close = (next: boolean) => {
    setAsking(next)
    if (!next) {
      setPassword('')
      set.reset()
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('policy.title')}</CardTitle>
        <CardDescription>{t('policy.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="flex items-center gap-3">
          <Switch id="require-mfa" checked={on} onCheckedChange={() => setAsking(true)} />
          <Label htmlFor="require-mfa">{t('policy.label')}</Label>
        </div>
        {needsOwn ? (
          <p role="alert" className="text-sm text-destructive">
            {t('policy.needs_own')}
          </p>
        ) : null}
        <ConfirmationDialog
          open={asking}
          onOpenChange={close}
          title={t(on ? 'policy.confirm_off_title' : 'policy.confirm_on_title')}
          description={t(on ? 'policy.confirm_off_text' : 'policy.confirm_on_text')}
          cancelLabel={t('policy.cancel')}
          confirmLabel={t('policy.confirm')}
          pending={set.isPending}
          onConfirm={() =>
            set.mutate(
              { on: !on, currentPassword: askPassword ? password : undefined },
              { onSuccess: () => close(false), onError: () => !on && setAsking(false) },
            )
          }
        >
          {askPassword ? (
            <div className="grid gap-1.5">
              <Label htmlFor="require-mfa-password">{t('card.current_password')}</Label>
              <Input
                id="require-mfa-password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={wrongPassword ? true : undefined}
              />
            </div>
          ) : null}
          {on && needsStepUp(set.error) ? <StepUpPrompt /> : null}
          {on && !needsStepUp(set.error) ? (
            <FormError error={set.error} messageKey={wrongPassword ? 'mfa:card.set_up_password_wrong' : undefined} />
          ) : null}
        </ConfirmationDialog>
        {!on && !needsOwn ? <FormError error={set.error} /> : null}
      </CardContent>
    </Card>
  )
}
