import { useMutation, useQuery } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { ShieldAlert } from 'lucide-react'
import { Brand } from '@/components/brand'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card'
import { mfaStatusQueryOptions, verifySecondFactor } from '../api/mfa'
import { FactorForm } from '@/components/factor-form'
import { stepUpPasskeyOptions } from '@/lib/passkey-assertion'
import { PasskeyFactorButton } from '@/components/passkey-factor-button'
import { TwoFactorCard } from './two-factor-card'

/**
 * An account whose owner requires two-factor sign-in (issue 29): a member
 * without a second factor enrols here (enrol: 403 mfa_enrolment_required),
 * one whose session has not met theirs gives a code (403
 * second_factor_required); then the account loads again.
 */
export function MfaRequiredPage({ enrol }: { enrol: boolean }) {
  const { t } = useTranslation('mfa')
  const router = useRouter()
  const verify = useMutation({ mutationFn: verifySecondFactor, meta: { shownInline: [422] } })
  const reload = () => void router.invalidate()
  const status = useQuery({ ...mfaStatusQueryOptions(), enabled: !enrol })
  return (
    <main className="mx-auto grid max-w-xl gap-4 p-6" data-testid="mfa-required">
      <Brand />
      <div className="flex items-start gap-3">
        <ShieldAlert className="mt-1 h-6 w-6 shrink-0 text-amber-600" aria-hidden="true" />
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold">{t(enrol ? 'enrolment.title' : 'enrolment.verify_title')}</h1>
          <p className="text-muted-foreground">{t(enrol ? 'enrolment.text' : 'enrolment.verify_text')}</p>
        </div>
      </div>
      {enrol ? (
        <TwoFactorCard onEnrolled={reload} />
      ) : (
        <Card>
          <CardHeader>
            <CardDescription>{t('enrolment.verify_text')}</CardDescription>
          </CardHeader>
          <CardContent>
            <FactorForm
              id="policy-factor"
              pending={verify.isPending}
              error={verify.isError ? t('step_up.wrong') : null}
              allowCode={status.data?.totp ?? true}
              allowRecovery={!status.data || status.data.recovery_codes_left > 0}
              onSubmit={(input) => verify.mutate(input, { onSuccess: reload })}
              extra={
                status.data && status.data.passkeys > 0 ? (
                  <PasskeyFactorButton
                    options={stepUpPasskeyOptions}
                    onAnswer={(webauthn) => verify.mutate({ webauthn }, { onSuccess: reload })}
                    pending={verify.isPending}
                  />
                ) : null
              }
            />
          </CardContent>
        </Card>
      )}
    </main>
  )
}
