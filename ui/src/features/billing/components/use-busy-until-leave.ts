import { useEffect, useState } from 'react'

/**
 * What is busy while the browser leaves for the checkout. A page restored
 * from the history cache (back from the checkout) runs nothing any more.
 */
export function useBusyUntilLeave<T>() {
  const [busy, setBusy] = useState<T | null>(null)
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(null)
    }
    window.addEventListener('pageshow', onPageShow)
    return () => window.removeEventListener('pageshow', onPageShow)
  }, [])
  return [busy, setBusy] as const
}
