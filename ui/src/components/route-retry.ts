import { useState } from 'react'
import { useRouter } from '@tanstack/react-router'

/** A route's error component retries by running its loader again. */
export function useRouteRetry(): { retrying: boolean; retry: () => void } {
  const router = useRouter()
  const [retrying, setRetrying] = useState(false)
  const retry = () => {
    setRetrying(true)
    void router.invalidate().finally(() => setRetrying(false))
  }
  return { retrying, retry }
}
