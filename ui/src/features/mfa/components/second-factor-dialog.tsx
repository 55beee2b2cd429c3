import { useMutation } from '@tanstack/react-query'
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
import { verifySecondFactor } from '../api/mfa'
import { FactorForm } from '@/components/factor-form'

/**
 * The step-up dialog: a change that needs the second factor (403
 * second_factor_required) asks for a code here, then is retried. The root
 * loads and mounts it while it is asked for (useSecondFactorAsked).
 */
export function SecondFactorDialog() {
  const { t } = useTranslation('mfa')
  const verify = useMutation({ mutationFn: verifySecondFactor, meta: { shownInline: [422] } })
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
          onSubmit={(input) =>
            verify.mutate(input, {
              onSuccess: () => {
                verify.reset()
                closeSecondFactor(true)
              },
            })
          }
          // PASSKEY (issue 29, lead): a "Use a passkey" step-up goes here, before Cancel.
          extra={
            <Button type="button" variant="outline" onClick={cancel}>
              {t('step_up.cancel')}
            </Button>
          }
        />
      </DialogContent>
    </Dialog>
  )
}
