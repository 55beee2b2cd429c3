import { cn } from '@/lib/utils'

/** Product logo mark and name. */
export function Brand({ className, showName = true }: { className?: string; showName?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold', className)}>
      <svg viewBox="0 0 32 32" className="h-7 w-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="currentColor" className="text-primary" />
        <path d="M9 23V9h3v6l5-6h4l-6 7 6 7h-4l-5-6v6z" fill="#fff" />
      </svg>
      {showName && <span>Kudos</span>}
    </span>
  )
}
