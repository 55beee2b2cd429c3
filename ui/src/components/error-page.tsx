import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button, buttonVariants } from '@/components/ui/button'
import { Brand } from '@/components/brand'

/** Generic error page (router errorComponent): shows the error's message. */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation('common')
  const router = useRouter()
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <Brand />
      <h1 className="text-2xl font-semibold">{t('error_page.title')}</h1>
      <p className="max-w-md text-muted-foreground" data-testid="error-message">
        {error instanceof Error && error.message ? error.message : t('error_page.unknown')}
      </p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          onClick={() => {
            reset()
            void router.invalidate()
          }}
        >
          {t('actions.try_again')}
        </Button>
        <Link className={buttonVariants()} to="/">{t('actions.go_home')}</Link>
      </div>
    </div>
  )
}

export function NotFoundPage() {
  const { t } = useTranslation('common')
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <Brand />
      <h1 className="text-2xl font-semibold">{t('not_found.title')}</h1>
      <p className="text-muted-foreground">{t('not_found.text')}</p>
      <Link className={buttonVariants()} to="/">{t('actions.go_home')}</Link>
    </div>
  )
}
