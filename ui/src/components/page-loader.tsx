import { useTranslation } from 'react-i18next'
import { SpinnerIcon } from '@/components/ui/icons'

/** Shown while a route's code, data or translations load. */
export function PageLoader() {
  // No suspending here: this is what shows while translations load.
  const { t, ready } = useTranslation('common', { useSuspense: false })
  return (
    <div className="flex min-h-40 w-full items-center justify-center p-8" role="status" aria-live="polite">
      <SpinnerIcon className="h-6 w-6 animate-spin text-muted-foreground" />
      <span className="sr-only">{ready ? t('actions.loading') : '…'}</span>
    </div>
  )
}
