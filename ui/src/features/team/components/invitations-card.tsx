import { useState } from 'react'
import type { UseQueryResult } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { MailX, Send } from 'lucide-react'
import { LazyConfirmationDialog as ConfirmationDialog } from '@/components/lazy-dialog'
import { LoadFailed } from '@/components/load-failed'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { isApiError } from '@/lib/api-client'
import { formatDate } from '@/lib/format'
import { useResendInvitation, useRevokeInvitation, type Invitation } from '../api/invitations'

/**
 * The pending invitations (owner and admins): e-mail, role, expiry and who
 * invited, with Resend (a new link, 7 more days) and Revoke (after a
 * confirmation).
 */
export function InvitationsCard({
  accountId,
  invitations,
  onDone,
}: {
  accountId: string
  invitations: UseQueryResult<{ invitations: Invitation[] }>
  onDone: (notice: string) => void
}) {
  const { t } = useTranslation('team')
  const resend = useResendInvitation(accountId)
  const revoke = useRevokeInvitation(accountId)
  const [revoking, setRevoking] = useState<Invitation | null>(null)
  const list = invitations.data?.invitations ?? []
  const resendError = resend.error && isApiError(resend.error) ? resend.error : null

  const confirmRevoke = () => {
    if (!revoking) return
    const email = revoking.email
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setRevoking(null)
        onDone(t('invitations.revoked', { email }))
      },
    })
  }

  let body
  if (invitations.isPending) {
    body = (
      <div className="grid gap-3" aria-busy="true" role="group" aria-label={t('invitations.list')}>
        {[0, 1].map((row) => (
          <Skeleton key={row} className="h-4 w-full" />
        ))}
      </div>
    )
  } else if (invitations.isError) {
    body = (
      <LoadFailed
        message={t('invitations.failed')}
        retrying={invitations.isFetching}
        onRetry={() => void invitations.refetch()}
      />
    )
  } else if (list.length === 0) {
    body = <p className="text-sm text-muted-foreground">{t('invitations.empty')}</p>
  } else {
    body = (
      <Table aria-label={t('invitations.list')}>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">{t('invitations.columns.email')}</TableHead>
            <TableHead scope="col">{t('invitations.columns.role')}</TableHead>
            <TableHead scope="col" className="hidden sm:table-cell">
              {t('invitations.columns.expires')}
            </TableHead>
            <TableHead scope="col" className="hidden md:table-cell">
              {t('invitations.columns.invited_by')}
            </TableHead>
            <TableHead scope="col">
              <span className="sr-only">{t('invitations.columns.actions')}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {list.map((invitation) => (
            <TableRow key={invitation.id} data-testid="invitation-row">
              <TableCell className="break-all font-medium">{invitation.email}</TableCell>
              <TableCell>{t(`roles.${invitation.role}`)}</TableCell>
              <TableCell className="hidden whitespace-nowrap sm:table-cell">
                <time dateTime={invitation.expires_at}>{formatDate(invitation.expires_at)}</time>
              </TableCell>
              <TableCell className="hidden md:table-cell">{invitation.invited_by || '-'}</TableCell>
              <TableCell>
                <div className="flex justify-end gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t('invitations.resend_label', { email: invitation.email })}
                    loading={resend.isPending && resend.variables === invitation.id}
                    disabled={resend.isPending}
                    onClick={() =>
                      resend.mutate(invitation.id, {
                        onSuccess: () => onDone(t('invitations.resent', { email: invitation.email })),
                      })
                    }
                  >
                    <Send aria-hidden="true" />
                    <span className="max-sm:sr-only">{t('invitations.resend')}</span>
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t('invitations.revoke_label', { email: invitation.email })}
                    onClick={() => {
                      revoke.reset()
                      setRevoking(invitation)
                    }}
                  >
                    <MailX aria-hidden="true" />
                    <span className="max-sm:sr-only">{t('invitations.revoke')}</span>
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    )
  }

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{t('invitations.title')}</CardTitle>
        <CardDescription>{t('invitations.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {body}
        {resendError && (resendError.status === 409 || resendError.status === 429) && (
          <p role="alert" className="text-sm text-destructive">
            {resendError.status === 409
              ? t('invitations.resend_full', {
                  email: list.find((i) => i.id === resend.variables)?.email ?? '',
                })
              : t('invitations.resend_too_many')}
          </p>
        )}
      </CardContent>
      <ConfirmationDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={t('invitations.revoke_dialog.title', { email: revoking?.email ?? '' })}
        description={t('invitations.revoke_dialog.text')}
        cancelLabel={t('invitations.revoke_dialog.cancel')}
        confirmLabel={t('invitations.revoke_dialog.confirm')}
        destructive
        pending={revoke.isPending}
        onConfirm={confirmRevoke}
      />
    </Card>
  )
}
