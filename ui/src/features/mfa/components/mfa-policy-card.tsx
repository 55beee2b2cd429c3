import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConfirmationDialog } from '@/components/confirmation-dialog'
import { FormError } from '@/components/form-error'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { isApiError } from '@/lib/api-client'
import { useSetRequireMfa } from '@/lib/api/update-account'

/**
 * The owner's switch (issue 29): require two-factor sign-in of every member,
 * confirmed in a dialog either way. Turning it on needs the owner's own
 * second factor (409: said here).
 */
export function MfaPolicyCard({ accountId, on }: { accountId: string; on: boolean }) {
  const { t } = useTranslation('mfa')
  const set = useSetRequireMfa(accountId)
  const [asking, setAsking] = useState(false)
  const needsOwn = isApiError(set.error) && set.error.status === 409
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
        ) : (
          <FormError error={set.error} />
        )}
        <ConfirmationDialog
          open={asking}
          onOpenChange={setAsking}
          title={t(on ? 'policy.confirm_off_title' : 'policy.confirm_on_title')}
          description={t(on ? 'policy.confirm_off_text' : 'policy.confirm_on_text')}
          cancelLabel={t('policy.cancel')}
          confirmLabel={t('policy.confirm')}
          pending={set.isPending}
          onConfirm={() => set.mutate(!on, { onSettled: () => setAsking(false) })}
        />
      </CardContent>
    </Card>
  )
}
