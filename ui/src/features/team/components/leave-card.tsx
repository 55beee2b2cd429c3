import { useState } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { LogOut } from 'lucide-react'
import { LazyConfirmationDialog as ConfirmationDialog } from '@/components/lazy-dialog'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { getAccounts } from '@/lib/api/get-accounts'
import type { Member } from '@/lib/api/get-members'
import { useSignout } from '@/lib/api/signout'
import { queryKeys } from '@/lib/query-keys'
import { rememberAccount } from '@/lib/session'
import { useRemoveMember } from '../api/members'
import { isSelf } from './team-rules'

/**
 * Leaving the account (anyone but the owner), after a confirmation. Then
 * the browser goes to another account the user belongs to, or, with none
 * left, signs out (their next sign-in makes them an account of their own).
 */
export function LeaveCard({
  accountId,
  accountName,
  members,
  userEmail,
}: {
  accountId: string
  accountName: string
  members: readonly Member[]
  userEmail: string
}) {
  const { t } = useTranslation('team')
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const leave = useRemoveMember(accountId)
  const signout = useSignout()
  const [open, setOpen] = useState(false)
  const [moving, setMoving] = useState(false)
  const self = members.find((m) => isSelf(m, userEmail))
  if (!self) return null

  const goElsewhere = async () => {
    setMoving(true)
    try {
      const { accounts } = await getAccounts()
      const next = accounts.find((a) => a.id !== accountId && a.last_used) ?? accounts.find((a) => a.id !== accountId)
      if (!next) {
        signout.mutate()
        return
      }
      rememberAccount(next.id)
      queryClient.removeQueries({ queryKey: queryKeys.account(accountId) })
      queryClient.removeQueries({ queryKey: queryKeys.team(accountId) })
      void queryClient.invalidateQueries({ queryKey: queryKeys.accounts() })
      await navigate({ to: '/dashboard/$accountId/testimonials', params: { accountId: next.id } })
    } catch {
      signout.mutate()
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('leave.title')}</CardTitle>
        <CardDescription>{t('leave.description', { account: accountName })}</CardDescription>
      </CardHeader>
      <CardContent>
        <ConfirmationDialog
          open={open}
          onOpenChange={setOpen}
          trigger={
            <Button variant="outline">
              <LogOut aria-hidden="true" />
              {t('leave.button', { account: accountName })}
            </Button>
          }
          title={t('leave.dialog.title', { account: accountName })}
          description={t('leave.dialog.text', { account: accountName })}
          cancelLabel={t('leave.dialog.cancel')}
          confirmLabel={t('leave.dialog.confirm')}
          destructive
          pending={leave.isPending || moving || signout.isPending}
          onConfirm={() => leave.mutate(self.user_id, { onSuccess: () => void goElsewhere() })}
        />
      </CardContent>
    </Card>
  )
}
