import { useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { FormError } from '@/components/form-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useRequestExport } from '../api/exports'

/**
 * "Your data": asks for an export of one's own data (and, for the owner,
 * of the account's) and opens the export's page, which follows it.
 */
export function DataExportCard({ accountId, isOwner }: { accountId: string; isOwner: boolean }) {
  const { t } = useTranslation('privacy')
  const navigate = useNavigate()
  const request = useRequestExport()
  const start = (account?: string) =>
    request.mutate(account, {
      onSuccess: ({ export_id }) =>
        void navigate({ to: '/dashboard/$accountId/exports/$exportId', params: { accountId, exportId: export_id } }),
    })

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('card.title')}</CardTitle>
        <CardDescription>{t('card.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => start()} loading={request.isPending && request.variables === undefined}
            disabled={request.isPending}>
            {t('card.export_mine')}
          </Button>
          {isOwner ? (
            <Button variant="outline" onClick={() => start(accountId)}
              loading={request.isPending && request.variables === accountId} disabled={request.isPending}>
              {t('card.export_account')}
            </Button>
          ) : null}
        </div>
        <FormError error={request.error} />
      </CardContent>
    </Card>
  )
}
