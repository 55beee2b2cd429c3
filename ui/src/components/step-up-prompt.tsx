import { useTranslation } from 'react-i18next'
import { ShieldCheck } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { isApiError } from '@/lib/api-client'
import { useStartStepUp } from '@/lib/step-up'

/** Whether error asks for a step-up (403 reauthentication_required). */
export function needsStepUp(error: unknown): boolean {
  return isApiError(error) && error.code === 'reauthentication_required'
}

/**
 * Shown when a change needs the user to sign in with Google again (a user
 * without a password): explains why and starts the step-up, which comes back
 * to this page.
 */
export function StepUpPrompt() {
  const { t } = useTranslation('auth')
  const start = useStartStepUp()
  return (
    <div role="alert" className="grid gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-3 text-sm">
      <p className="flex items-start gap-2">
        <ShieldCheck className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        {t('step_up.text')}
      </p>
      <Button
        type="button"
        variant="outline"
        loading={start.isPending}
        onClick={() => start.mutate(window.location.pathname + window.location.search)}
      >
        {t('step_up.button')}
      </Button>
    </div>
  )
}
