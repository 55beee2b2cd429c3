import type { ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { Brand } from '@/components/brand'
import { LanguagePicker } from '@/components/language-picker'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card'

/** Frame of the public screens: brand, language picker and a centred card. */
export function AuthLayout({
  title,
  description,
  children,
}: {
  title: ReactNode
  description?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="flex min-h-screen flex-col bg-muted/40">
      <header className="flex h-12 items-center justify-between px-4">
        <Link to="/" className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <Brand />
        </Link>
        <LanguagePicker />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center">
        <Card className="w-full max-w-md">
          <CardHeader>
            <h1 className="text-xl leading-none font-semibold tracking-tight">{title}</h1>
            {description && <CardDescription>{description}</CardDescription>}
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </main>
    </div>
  )
}
