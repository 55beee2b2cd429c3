import type { FormEventHandler, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'

/**
 * A dialog around a small form (invite someone, transfer the ownership):
 * the trigger, a title and description, the fields, Cancel and the submit
 * button. While `pending` the submit spins and the dialog cannot be closed.
 */
export function FormDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  onSubmit,
  pending,
  cancelLabel,
  submitLabel,
  children,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Opens the dialog; without one the caller drives `open` (e.g. from a row's button). */
  trigger?: ReactNode
  title: ReactNode
  description: ReactNode
  onSubmit: FormEventHandler<HTMLFormElement>
  pending: boolean
  cancelLabel: ReactNode
  submitLabel: ReactNode
  children: ReactNode
}) {
  const { t } = useTranslation('common')
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent closeLabel={t('actions.close')}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          {children}
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={() => onOpenChange(false)}>
              {cancelLabel}
            </Button>
            <Button type="submit" loading={pending}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
