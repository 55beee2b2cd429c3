import * as React from 'react'
import { cn } from '@/lib/utils'

/** A placeholder block while content loads: a rounded rectangle, or a circle or pill with `round`. */
export function Skeleton({ className, round = false, ...props }: React.HTMLAttributes<HTMLDivElement> & { round?: boolean }) {
  return (
    <div aria-hidden="true" className={cn('animate-pulse bg-muted', round ? 'rounded-full' : 'rounded-md', className)} {...props} />
  )
}
