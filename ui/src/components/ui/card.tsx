import * as React from 'react'
import { cx } from '@/lib/cx'

type DivProps = React.HTMLAttributes<HTMLDivElement>

export function Card({ className, ...props }: DivProps) {
  return <div className={cx('rounded-xl border bg-card text-card-foreground shadow-sm', className)} {...props} />
}

export function CardHeader({ className, ...props }: DivProps) {
  return <div className={cx('flex flex-col gap-1.5 p-6', className)} {...props} />
}

export function CardTitle({ className, ...props }: React.HTMLAttributes<HTMLHeadingElement>) {
  return <h2 className={cx('text-lg font-semibold leading-none tracking-tight', className)} {...props} />
}

export function CardDescription({ className, ...props }: React.HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cx('text-sm text-muted-foreground', className)} {...props} />
}

export function CardContent({ className, ...props }: DivProps) {
  return <div className={cx('p-6 pt-0', className)} {...props} />
}

export function CardFooter({ className, ...props }: DivProps) {
  return <div className={cx('flex items-center p-6 pt-0', className)} {...props} />
}
