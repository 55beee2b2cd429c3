import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button, buttonVariants } from '@/components/ui/button'
import { Brand } from '@/components/brand'
import { isApiError } from '@/lib/api-client'
import { popupMessageKey } from '@/components/error-popup'

/**
 * What went wrong, in the UI's language: the server's English message is never
 * shown; an api error is explained by its status (SPEC §8 texts), anything else
 * as an unknown error.
 */
export function errorPageMessageKey(error: unknown): string {
  return isApiError(error) ? popupMessageKey(error.status, error.code) : 'error_page.unknown'
}

/** Generic error page (router errorComponent): shows the error's message. */
export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation('common')
  const router = useRouter()
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <Brand />
      <h1 className="text-2xl font-semibold">{t('error_page.title')}</h1>
      <p className="max-w-md text-muted-foreground" data-testid="error-message">
        {t(errorPageMessageKey(error))}
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

/** The root's error and not-found pages stand alone, so they are the page's main landmark. */
export function RootErrorPage(props: ErrorComponentProps) {
  return (
    <main>
      <ErrorPage {...props} />
    </main>
  )
}

export function RootNotFoundPage() {
  return (
    <main>
      <NotFoundPage />
    </main>
  )
}
