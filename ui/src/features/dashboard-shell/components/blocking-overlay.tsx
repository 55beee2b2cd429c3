import { useEffect, useId, useState } from 'react'
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Clock, Loader2 } from 'lucide-react'
import { Button, buttonVariants } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useCancelCheckout } from '@/lib/api/cancel-checkout'
import { cn } from '@/lib/utils'
import type { OverlayKind } from './shell-rules'

/** How long the processing overlay waits before it offers a way out. */
export const PROCESSING_WAY_OUT_MS = 4000

/**
 * Covers the routed page (header and menus stay usable). Expired trial/plan:
 * a call to action to the plans page. Processing: a waiting message, and
 * after a few seconds a way out (the customer may have closed the payment
 * page): "Cancel payment" ends the open checkout at once.
 */
export function BlockingOverlay({
  kind,
  accountId,
  sidebarHidden,
  owner,
}: {
  kind: OverlayKind
  accountId: string
  sidebarHidden: boolean
  /** The signed-in user owns the account: only they choose a plan or cancel a payment (issue 26). */
  owner: boolean
}) {
  const { t } = useTranslation('dashboard-shell')
  const titleId = useId()
  const textId = useId()
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={textId}
      data-testid={`overlay-${kind}`}
      className={cn(
        'fixed bottom-0 right-0 top-12 z-20 flex items-center justify-center bg-background/80 p-4 backdrop-blur-sm',
        sidebarHidden ? 'left-0' : 'left-0 md:left-56',
      )}
    >
      <Card className="w-full max-w-md text-center">
        <CardHeader className="items-center">
          {kind === 'processing' ? (
            <Loader2 className="h-8 w-8 animate-spin text-primary" aria-hidden="true" />
          ) : (
            <Clock className="h-8 w-8 text-destructive" aria-hidden="true" />
          )}
          <CardTitle id={titleId}>{t(`overlay.${kind}.title`)}</CardTitle>
          <CardDescription id={textId}>{t(`overlay.${kind}.text`)}</CardDescription>
        </CardHeader>
        {kind === 'processing' && owner && <ProcessingWayOut accountId={accountId} />}
        {kind !== 'processing' && !owner && (
          <CardContent>
            <p className="text-sm" data-testid="overlay-ask-owner">
              {t('overlay.ask_owner')}
            </p>
          </CardContent>
        )}
        {kind !== 'processing' && owner && (
          <CardContent>
            <Link className={buttonVariants()} to="/dashboard/$accountId/plans" params={{ accountId }} search={{ for: kind }} autoFocus>
              {t(`overlay.${kind}.cta`)}
            </Link>
          </CardContent>
        )}
      </Card>
    </div>
  )
}

/**
 * "Cancel payment", offered after PROCESSING_WAY_OUT_MS. The server asks the
 * provider first: a payment made meanwhile is applied (the account refetch
 * then shows the plan), one still settling stays and is said so.
 */
function ProcessingWayOut({ accountId }: { accountId: string }) {
  const { t } = useTranslation('dashboard-shell')
  const [offered, setOffered] = useState(false)
  const cancel = useCancelCheckout(accountId)
  useEffect(() => {
    const timer = window.setTimeout(() => setOffered(true), PROCESSING_WAY_OUT_MS)
    return () => window.clearTimeout(timer)
  }, [])
  if (!offered) return null
  return (
    <CardContent className="grid gap-3">
      <p className="text-sm text-muted-foreground">{t('overlay.processing.way_out')}</p>
      <Button variant="outline" onClick={() => cancel.mutate()} disabled={cancel.isPending} aria-busy={cancel.isPending}>
        {cancel.isPending && <Loader2 className="mr-2 h-4 w-4 animate-spin" aria-hidden="true" />}
        {t('overlay.processing.cancel')}
      </Button>
      {cancel.data?.status === 'pending' && (
        <p role="status" className="text-sm">
          {t('overlay.processing.settling')}
        </p>
      )}
    </CardContent>
  )
}
