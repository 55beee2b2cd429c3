import { useTranslation } from 'react-i18next'
import { ImageIcon, RefreshCw, Trash2 } from 'lucide-react'
import { FormError } from '@/components/form-error'
import { ConfirmationDialog } from '@/components/confirmation-dialog'
import { Button } from '@/components/ui/button'

/**
 * The public logo with its Change and Delete buttons; Delete asks first. Both
 * end in the same DELETE, which the card runs (it outlives this view).
 */
export function LogoPreview({
  src,
  alt,
  title,
  busy,
  changing,
  error,
  confirmOpen,
  onConfirmOpenChange,
  onChange,
  onDelete,
}: {
  /** logo_url; '' shows an image icon instead. */
  src: string
  alt: string
  title: string
  /** The DELETE is running. */
  busy: boolean
  /** It runs for Change (its button shows the spinner). */
  changing: boolean
  error: unknown
  confirmOpen: boolean
  onConfirmOpenChange: (open: boolean) => void
  onChange: () => void
  onDelete: () => void
}) {
  const { t } = useTranslation('account')
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-4">
        {src ? (
          <img src={src} alt={alt} title={title} className="h-24 max-w-48 rounded-md border bg-white object-contain p-2" />
        ) : (
          <div className="flex h-24 w-24 items-center justify-center rounded-md border" title={title}>
            <ImageIcon className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" loading={changing} disabled={busy} onClick={onChange}>
            <RefreshCw aria-hidden="true" />
            {t('logo.change')}
          </Button>
          <ConfirmationDialog
            open={confirmOpen}
            onOpenChange={onConfirmOpenChange}
            trigger={
              <Button variant="outline" size="sm" disabled={busy}>
                <Trash2 aria-hidden="true" />
                {t('logo.delete')}
              </Button>
            }
            title={t('logo.delete_title')}
            description={t('logo.delete_text')}
            cancelLabel={t('common:actions.cancel')}
            confirmLabel={t('logo.delete_confirm')}
            destructive
            pending={busy}
            onConfirm={onDelete}
          />
        </div>
      </div>
      <FormError error={error} />
    </div>
  )
}
