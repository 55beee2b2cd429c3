import * as React from 'react'
import { CloseIcon } from './icons'
import { cn } from '@/lib/utils'

/** A fixed popup in the bottom right corner; the caller decides when it shows. */
export function Toast({
  className,
  children,
  onClose,
  closeLabel = 'Close',
  variant = 'default',
  ...props
}: React.HTMLAttributes<HTMLDivElement> & {
  onClose?: () => void
  closeLabel?: string
  variant?: 'default' | 'destructive'
}) {
  return (
    <div
      className={cn(
        'pointer-events-auto fixed bottom-4 right-4 z-[100] flex w-[calc(100%-2rem)] max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg',
        variant === 'destructive' ? 'border-red-700 bg-red-700 text-white' : 'bg-background',
        className,
      )}
      {...props}
    >
      <div className="flex-1">{children}</div>
      {onClose && (
        <button
          type="button"
          onClick={onClose}
          className="rounded-sm opacity-80 hover:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <CloseIcon className="h-4 w-4" />
          <span className="sr-only">{closeLabel}</span>
        </button>
      )}
    </div>
  )
}

export function ToastTitle({ className, ...props }: React.HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn('text-sm font-semibold', className)} {...props} />
}

export function ToastDescription({ className, ...props }: React.HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn('text-sm', className)} {...props} />
}
