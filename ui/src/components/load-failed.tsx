import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'

/** A section that could not be loaded: what failed, with a retry. */
export function LoadFailed({ message, retrying, onRetry }: { message: string; retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation('common')
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
      {message}
      <Button variant="outline" size="sm" loading={retrying} onClick={onRetry}>
        {t('actions.try_again')}
      </Button>
    </div>
  )
}
