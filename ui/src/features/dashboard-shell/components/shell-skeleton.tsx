import { useTranslation } from 'react-i18next'
import { Brand } from '@/components/brand'
import { Skeleton } from '@/components/ui/skeleton'

/**
 * The dashboard's frame drawn at once while the account loads: the header,
 * the sidebar and skeleton content where the page will be, so nothing jumps
 * when the data arrives.
 */
export function ShellSkeleton() {
  const { t, ready } = useTranslation('common', { useSuspense: false })
  return (
    <div className="min-h-screen" aria-busy="true">
      <header className="fixed inset-x-0 top-0 z-40 flex h-12 items-center gap-3 border-b bg-background px-4">
        <Brand />
        <Skeleton round className="h-5 w-12" />
        <Skeleton round className="ml-auto h-7 w-7" />
      </header>
      <nav className="fixed bottom-0 left-0 top-12 hidden w-56 flex-col gap-2 border-r bg-background p-3 md:flex" aria-hidden="true">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </nav>
      <main className="fixed bottom-0 left-0 right-0 top-12 overflow-hidden p-4 md:left-56 md:p-8">
        <p role="status" className="sr-only">
          {ready ? t('actions.loading') : '…'}
        </p>
        <div className="mx-auto grid w-full max-w-4xl gap-4">
          <Skeleton className="h-8 w-48" />
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      </main>
    </div>
  )
}
