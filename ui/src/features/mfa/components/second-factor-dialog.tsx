import { useMutation, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Button } from '@/components/ui/button'
import { closeSecondFactor } from '@/lib/second-factor'
import { mfaStatusQueryOptions, verifySecondFactor } from '../api/mfa'
import { FactorForm, type FactorInput } from '@/components/factor-form'
import { stepUpPasskeyOptions } from '@/lib/passkey-assertion'
import { PasskeyFactorButton } from '@/components/passkey-factor-button'

/**
 * The step-up dialog: a change that needs the second factor (403
 * second_factor_required) asks for a code here, then is retried. The root
 * loads and mounts it while it is asked for (useSecondFactorAsked).
 */
export function SecondFactorDialog() {
  const { t } = useTranslation('mfa')
  const verify = useMutation({ mutationFn: verifySecondFactor, meta: { shownInline: [422] } })
  const status = useQuery(mfaStatusQueryOptions())
  const meet = (input: FactorInput) =>
    verify.mutate(input, {
      onSuccess: () => {
        verify.reset()
        closeSecondFactor(true)
      },
    })
  const cancel = () => {
    if (verify.isPending) return
    verify.reset()
    closeSecondFactor(false)
  }
  return (
    <Dialog open onOpenChange={(next) => !next && cancel()}>
      <DialogContent closeLabel={t('step_up.cancel')}>
        <DialogHeader>
          <DialogTitle>{t('step_up.title')}</DialogTitle>
          <DialogDescription>{t('step_up.text')}</DialogDescription>
        </DialogHeader>
        <FactorForm
          id="step-up-factor"
          pending={verify.isPending}
          error={verify.isError ? t('step_up.wrong') : null}
          submitLabel={t('step_up.submit')}
          allowCode={status.data?.totp ?? true}
          allowRecovery={!status.data || status.data.recovery_codes_left > 0}
          onSubmit={meet}
          extra={
            <>
              {status.data && status.data.passkeys > 0 ? (
                <PasskeyFactorButton options={stepUpPasskeyOptions} onAnswer={(webauthn) => meet({ webauthn })} pending={verify.isPending} />
              ) : null}
              <Button type="button" variant="outline" onClick={cancel}>
                {t('step_up.cancel')}
              </Button>
            </>
          }
        />
      </DialogContent>
    </Dialog>
  )
}
