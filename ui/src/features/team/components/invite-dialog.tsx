import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { UserPlus } from 'lucide-react'
import { lazyDialog } from '@/components/lazy-dialog'
import { Button } from '@/components/ui/button'
import { useInvite } from '../api/invitations'

/** The invitation's dialog and form (invite-form.tsx), fetched when the page is idle or on intent. */
export const InviteFormDialog = lazyDialog(() => import('./invite-form').then((m) => m.InviteFormDialog))

/**
 * "Invite a member": e-mail and role (admin or member). Disabled, with the
 * reason next to it, when every seat is used. The form mounts when the
 * dialog opens (fresh each time), not with the team page, and its code
 * (react-hook-form, the dialog) is not part of the page's first load.
 */
export function InviteDialog({
  accountId,
  accountName,
  full,
  onInvited,
}: {
  accountId: string
  accountName: string
  full: boolean
  onInvited: (notice: string) => void
}) {
  const { t } = useTranslation('team')
  const [open, setOpen] = useState(false)
  const invite = useInvite(accountId)

  const onOpenChange = (next: boolean) => {
    if (next) invite.reset()
    setOpen(next)
  }

  return (
    <InviteFormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={invite.isPending}
      trigger={
        <Button disabled={full} aria-describedby={full ? 'team-full' : undefined}>
          <UserPlus aria-hidden="true" />
          {t('invite.button')}
        </Button>
      }
      accountName={accountName}
      invite={invite}
      onClose={() => setOpen(false)}
      onInvited={(notice) => {
        setOpen(false)
        onInvited(notice)
      }}
    />
  )
}
