import { useState } from 'react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { FormError } from '@/components/form-error'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { SpinnerIcon } from '@/components/ui/icons'
import { isApiError } from '@/lib/api-client'
import { accountQueryOptions, logoState, type LogoState } from '@/lib/api/get-account'
import { trimPublicPath } from '@/lib/format'
import { useDeleteLogo } from '../api/delete-logo'
import { useUploadLogo } from '../api/upload-logo'
import { LogoDropZone, type DropZoneEntry } from './logo-drop-zone'
import { checkLogoFile, logoRefusal, type LogoFileProblem } from './logo-file'
import { LogoPreview } from './logo-preview'

type ShownState = LogoState | 'uploading'

/** What the live region adds when the state changes (processing speaks for itself). */
function announcementKey(from: ShownState, to: ShownState): string | null {
  if (to === 'public' && from !== 'public') return 'logo.ready'
  if (to === 'placeholder' && from === 'public') return 'logo.deleted'
  return null
}

/**
 * The account logo (SPEC §2, §4): placeholder (drop zone), uploading
 * (progress), temporary (processing, while the account query polls every
 * 2.5 s) and public (the image with change and delete). Upload is offered in
 * the placeholder state only.
 */
export function LogoCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation('account')
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  const { name, img_url, logo_url, logo_error } = data.account
  const upload = useUploadLogo(accountId)
  const remove = useDeleteLogo(accountId)
  const [progress, setProgress] = useState(0)
  const [problem, setProblem] = useState<LogoFileProblem | null>(null)
  const [entry, setEntry] = useState<DropZoneEntry>(null)
  const [confirmOpen, setConfirmOpen] = useState(false)
  const [changing, setChanging] = useState(false)

  const state: ShownState = upload.isPending ? 'uploading' : logoState(img_url)
  const [shown, setShown] = useState(state)
  const [announcement, setAnnouncement] = useState<string | null>(null)
  if (shown !== state) {
    setShown(state)
    setAnnouncement(announcementKey(shown, state))
  }

  const onFile = (file: File) => {
    const check = checkLogoFile(file)
    upload.reset()
    setEntry(null)
    if (!check.ok) {
      setProblem(check.problem)
      return
    }
    setProblem(null)
    setProgress(0)
    upload.mutate({ ...check.upload, onProgress: setProgress })
  }

  // Change is a delete that lands in the drop zone with the file chooser open.
  const change = () => {
    setChanging(true)
    remove.mutate(undefined, { onSuccess: () => setEntry('choose'), onSettled: () => setChanging(false) })
  }
  const confirmDelete = () =>
    remove.mutate(undefined, { onSuccess: () => setEntry('focus'), onSettled: () => setConfirmOpen(false) })

  const serverSaysNotAnImage =
    isApiError(upload.error) && upload.error.status === 422 && upload.error.fields.filename === 'not_an_image'
  const refusal = logoRefusal(logo_error)

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('logo.title')}</CardTitle>
        <CardDescription>{t('logo.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {/* Always mounted, so that screen readers hear processing and ready. */}
        <div role="status" aria-live="polite" data-testid="logo-status">
          {state === 'temporary' && (
            <div className="flex items-center gap-3 rounded-md border border-dashed p-6 text-sm">
              <SpinnerIcon className="h-6 w-6 shrink-0 animate-spin text-muted-foreground" />
              <div className="grid gap-1">
                <p className="font-medium">{t('logo.processing')}</p>
                <p className="text-muted-foreground">{t('logo.processing_hint')}</p>
              </div>
            </div>
          )}
          {announcement && <span className="sr-only">{t(announcement)}</span>}
        </div>

        {state === 'uploading' && <UploadProgress name={upload.variables?.file.name ?? ''} percent={progress} />}

        {state === 'public' && (
          <LogoPreview
            src={logo_url ?? ''}
            alt={name ? t('logo.alt', { name }) : t('logo.alt_unnamed')}
            title={trimPublicPath(img_url ?? '')}
            busy={remove.isPending}
            changing={changing}
            error={remove.error}
            confirmOpen={confirmOpen}
            onConfirmOpenChange={setConfirmOpen}
            onChange={change}
            onDelete={confirmDelete}
          />
        )}

        {state === 'placeholder' && (
          <div className="grid gap-3">
            <LogoDropZone onFile={onFile} entry={entry} />
            {problem ? (
              <FormError messageKey={`account:logo.invalid.${problem}`} />
            ) : serverSaysNotAnImage ? (
              <FormError messageKey="account:logo.invalid.not_an_image" />
            ) : upload.error ? (
              <FormError error={upload.error} />
            ) : (
              refusal && <FormError messageKey={`account:logo.refused.${refusal}`} />
            )}
          </div>
        )}
      </CardContent>
    </Card>
  )
}

function UploadProgress({ name, percent }: { name: string; percent: number }) {
  const { t } = useTranslation('account')
  return (
    <div className="grid gap-2 rounded-md border border-dashed p-6 text-sm">
      <div className="flex items-center justify-between gap-3">
        <span className="truncate">{t('logo.uploading', { name })}</span>
        <span className="tabular-nums text-muted-foreground" aria-hidden="true">
          {t('logo.percent', { percent })}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={t('logo.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={t('logo.percent', { percent })}
        className="h-2 w-full overflow-hidden rounded-full bg-secondary"
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  )
}
