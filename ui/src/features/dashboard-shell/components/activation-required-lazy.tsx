import { lazy, Suspense } from 'react'
import { ShellSkeleton } from './shell-skeleton'

/**
 * The confirm-your-e-mail screen is for the rare unactivated user: its code
 * (a form library, a dialog) is a chunk of its own that a signed-in customer's
 * dashboard does not download. loadActivationRequired starts that download
 * early (the route's loader, once it knows).
 */
export const loadActivationRequired = () => import('./activation-required')

const ActivationRequiredChunk = lazy(() => loadActivationRequired().then((m) => ({ default: m.ActivationRequired })))

export function ActivationRequiredLazy({ email }: { email?: string }) {
  return (
    <Suspense fallback={<ShellSkeleton />}>
      <ActivationRequiredChunk email={email} />
    </Suspense>
  )
}
