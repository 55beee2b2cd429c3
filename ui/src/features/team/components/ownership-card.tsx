import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Crown } from 'lucide-react'
import { lazyDialog } from '@/components/lazy-dialog'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import type { User } from '@/lib/api/get-account'
import type { Member } from '@/lib/api/get-members'
import { useTransferOwnership } from '../api/transfer-ownership'
import { isSelf } from './team-rules'

/** The transfer's dialog and form (transfer-form.tsx), fetched when the page is idle or on intent. */
export const TransferFormDialog = lazyDialog(() => import('./transfer-form').then((m) => m.TransferFormDialog))

/** Ownership (the owner only): transfer it to another member, re-authenticated; the owner becomes an admin. */
export function OwnershipCard({
  accountId,
  accountName,
  user,
  members,
  onDone,
}: {
  accountId: string
  accountName: string
  user: User
  members: readonly Member[]
  onDone: (notice: string) => void
}) {
  const { t } = useTranslation('team')
  const [open, setOpen] = useState(false)
  const transfer = useTransferOwnership(accountId)
  const candidates = members.filter((m) => !isSelf(m, user.email))

  const onOpenChange = (next: boolean) => {
    if (next) transfer.reset()
    setOpen(next)
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('ownership.title')}</CardTitle>
        <CardDescription>{t('ownership.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid justify-items-start gap-2">
        <TransferFormDialog
          open={open}
          onOpenChange={onOpenChange}
          pending={transfer.isPending}
          trigger={
            <Button variant="outline" disabled={candidates.length === 0} aria-describedby={candidates.length === 0 ? 'ownership-none' : undefined}>
              <Crown aria-hidden="true" />
              {t('ownership.button')}
            </Button>
          }
          accountName={accountName}
          socialLogin={user.social_login}
          candidates={candidates}
          transfer={transfer}
          onClose={() => setOpen(false)}
          onDone={(notice) => {
            setOpen(false)
            onDone(notice)
          }}
        />
        {candidates.length === 0 && (
          <p id="ownership-none" className="text-sm text-muted-foreground">
            {t('ownership.no_candidates')}
          </p>
        )}
      </CardContent>
    </Card>
  )
}
