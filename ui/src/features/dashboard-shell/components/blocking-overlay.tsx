import { useId } from 'react'
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Clock, Loader2 } from 'lucide-react'
import { buttonVariants } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { cn } from '@/lib/utils'
import type { OverlayKind } from './shell-rules'

/**
 * Covers the routed page (header and menus stay usable). Expired trial/plan:
 * a call to action to the plans page. Processing: a waiting message.
 */
export function BlockingOverlay({
  kind,
  accountId,
  sidebarHidden,
}: {
  kind: OverlayKind
  accountId: string
  sidebarHidden: boolean
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
        {kind !== 'processing' && (
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
