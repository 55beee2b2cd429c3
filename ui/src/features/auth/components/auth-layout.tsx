import type { ReactNode } from 'react'
import { PublicHeader } from '@/components/public-header'
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
      <PublicHeader />
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
