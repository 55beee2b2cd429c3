import * as React from 'react'
import { cn } from '@/lib/utils'

// A native <label>: Radix Label would bring its Slot machinery into the
// sign-in bundle for no behaviour we need.
export function Label({ className, ...props }: React.LabelHTMLAttributes<HTMLLabelElement>) {
  return (
    <label
      className={cn('text-sm font-medium leading-none peer-disabled:cursor-not-allowed peer-disabled:opacity-70', className)}
      {...props}
    />
  )
}
