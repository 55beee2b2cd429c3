import type { ComponentType, FormEventHandler, ReactNode } from 'react'
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

/** What FormDialogFrame takes: the dialog's state, its trigger and whether a submit is under way. */
interface FrameProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Opens the dialog; without one the caller drives `open` (e.g. from a row's button). */
  trigger?: ReactNode
  /** While true the dialog cannot be closed. */
  pending: boolean
  children: ReactNode
}

/** What FormDialogForm takes: the heading, the fields and the two buttons. */
interface FormProps {
  title: ReactNode
  description: ReactNode
  onSubmit: FormEventHandler<HTMLFormElement>
  /** While true the submit spins and Cancel is disabled. */
  pending: boolean
  /** Cancel's action: closes the dialog. */
  onCancel: () => void
  cancelLabel: ReactNode
  submitLabel: ReactNode
  children: ReactNode
}

/**
 * A dialog around a small form (invite someone, transfer the ownership):
 * the trigger, a title and description, the fields, Cancel and the submit
 * button. While `pending` the submit spins and the dialog cannot be closed.
 * A form whose hooks should not run while the dialog is closed (the team
 * page's: react-hook-form's first call costs a phone tens of milliseconds)
 * puts a component of its own, rendering FormDialogForm, inside
 * FormDialogFrame: the dialog's content mounts only when it opens.
 */
export function FormDialog({
  open,
  onOpenChange,
  trigger,
  pending,
  ...form
}: Omit<FrameProps, 'children'> & Omit<FormProps, 'onCancel'>) {
  return (
    <FormDialogFrame open={open} onOpenChange={onOpenChange} trigger={trigger} pending={pending}>
      <FormDialogForm {...form} pending={pending} onCancel={() => onOpenChange(false)} />
    </FormDialogFrame>
  )
}

/** What a dialog made by formDialog takes: its state, whether a submit is under way, and its form's own props. */
export type FormDialogProps<P> = { open: boolean; onOpenChange: (open: boolean) => void; pending: boolean } & P

/**
 * The dialog of the form component Form (one that renders FormDialogForm):
 * FormDialogFrame around it, so that Form, and its hooks, mount only while
 * the dialog is open. Form gets every prop but the dialog's own (open,
 * onOpenChange, pending). The team page's invitation and ownership
 * transfer are made so, each in a chunk of its own (lazy-dialog.tsx).
 */
export function formDialog<P extends object>(Form: ComponentType<P>) {
  function InDialog({ open, onOpenChange, pending, ...form }: FormDialogProps<P>) {
    return (
      <FormDialogFrame open={open} onOpenChange={onOpenChange} pending={pending}>
        <Form {...(form as P)} />
      </FormDialogFrame>
    )
  }
  InDialog.displayName = `FormDialog(${Form.displayName ?? Form.name})`
  return InDialog
}

/** The dialog of FormDialog without its form: the trigger and the content's frame. */
export function FormDialogFrame({ open, onOpenChange, trigger, pending, children }: FrameProps) {
  const { t } = useTranslation('common')
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent closeLabel={t('actions.close')}>{children}</DialogContent>
    </Dialog>
  )
}

/** The form of FormDialog: title, description, the fields, Cancel and the submit button. */
export function FormDialogForm({ title, description, onSubmit, pending, onCancel, cancelLabel, submitLabel, children }: FormProps) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        {children}
        <DialogFooter>
          <Button type="button" variant="outline" disabled={pending} onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}
