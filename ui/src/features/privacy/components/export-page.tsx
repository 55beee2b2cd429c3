import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Button, buttonVariants } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card'
import { SpinnerIcon } from '@/components/ui/icons'
import { FormError } from '@/components/form-error'
import { isApiError } from '@/lib/api-client'
import { formatDateTime } from '@/lib/format'
import { exportQueryOptions, useRequestExport } from '../api/exports'

/** Bytes as a short size ("2.4 MB"). */
export function formatSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB']
  let n = bytes
  let unit = 0
  while (n >= 1000 && unit < units.length - 1) {
    n /= 1000
    unit++
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(n)} ${units[unit]}`
}

/**
 * The page of one data export (the mail links here): preparing (it polls,
 * and says a mail will follow), ready (download, with its size and until
 * when), or expired (ask for a new one).
 */
export function ExportPage({ exportId }: { exportId: string }) {
  const { t, i18n } = useTranslation('privacy')
  const { data, error, isPending, refetch } = useQuery(exportQueryOptions(exportId))
  const again = useRequestExport()

  let body: React.ReactNode
  if (isPending) {
    body = (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <SpinnerIcon className="h-4 w-4 animate-spin" aria-hidden="true" />
        {t('page.loading')}
      </p>
    )
  } else if (error) {
    body = isApiError(error) && error.status === 404 ? (
      <p>{t('page.not_found')}</p>
    ) : (
      <div className="grid gap-2">
        <FormError error={error} />
        <div>
          <Button variant="outline" onClick={() => void refetch()}>
            {t('page.retry')}
          </Button>
        </div>
      </div>
    )
  } else if (data.status === 'preparing') {
    body = (
      <p role="status" aria-live="polite" className="flex items-center gap-2">
        <SpinnerIcon className="h-4 w-4 animate-spin" aria-hidden="true" />
        {t('page.preparing')}
      </p>
    )
  } else if (data.status === 'ready') {
    body = (
      <div className="grid gap-3" role="status" aria-live="polite">
        <p>
          {t('page.ready', {
            size: formatSize(data.size_bytes, i18n.language),
            date: data.expires_at ? formatDateTime(data.expires_at, i18n.language) : '',
          })}
        </p>
        <div>
          {/* The link is valid a few minutes: the query fetches a fresh one whenever the page is shown again. */}
          <a className={buttonVariants()} href={data.download_url} download>
            {t('page.download')}
          </a>
        </div>
      </div>
    )
  } else {
    body = (
      <div className="grid gap-3">
        <p>{t('page.expired')}</p>
        <div>
          <Button variant="outline" onClick={() => again.mutate(data.account_id ?? undefined)} loading={again.isPending}>
            {t('page.new_export')}
          </Button>
        </div>
        {again.isSuccess ? <p role="status">{t('page.new_started')}</p> : null}
        <FormError error={again.error} />
      </div>
    )
  }

  return (
    <section className="mx-auto grid w-full max-w-2xl gap-4 p-4 md:p-8">
      <h1 className="text-2xl font-semibold">{data?.account_id ? t('page.title_account') : t('page.title')}</h1>
      <Card>
        <CardHeader>
          <CardDescription>{t('page.description')}</CardDescription>
        </CardHeader>
        <CardContent>{body}</CardContent>
      </Card>
    </section>
  )
}
