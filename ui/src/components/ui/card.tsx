import * as React from 'react'
import { cn } from '@/lib/utils'

type DivProps = React.HTMLAttributes<HTMLDivElement>

/** A bordered panel; `highlighted` raises it with the primary colour's border (the most popular plan). */
export function Card({ className, highlighted = false, ...props }: DivProps & { highlighted?: boolean }) {
  return (
    <div
      className={cn('rounded-xl border bg-card text-card-foreground', highlighted ? 'border-primary shadow-md' : 'shadow-sm', className)}
      {...props}
    />
  )
}

export function CardHeader({ className, ...props }: DivProps) {
  return <div className={cn('flex flex-col gap-1.5 p-6', className)} {...props} />
}

/** A card's heading; `large` for a card that is the page's main choice (a plan). */
export function CardTitle({ className, large = false, ...props }: React.HTMLAttributes<HTMLHeadingElement> & { large?: boolean }) {
  return <h2 className={cn(large ? 'text-xl' : 'text-lg', 'font-semibold leading-none tracking-tight', className)} {...props} />
}

export function CardDescription({ className, ...props }: React.HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn('text-sm text-muted-foreground', className)} {...props} />
}

export function CardContent({ className, ...props }: DivProps) {
  return <div className={cn('p-6 pt-0', className)} {...props} />
}

/** A card's actions: in a row, or with `stacked` one above the other at full width. */
export function CardFooter({ className, stacked = false, ...props }: DivProps & { stacked?: boolean }) {
  return <div className={cn('p-6 pt-0', stacked ? 'grid gap-3' : 'flex items-center', className)} {...props} />
}
