import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { UserMinus } from 'lucide-react'
import { LazyConfirmationDialog as ConfirmationDialog } from '@/components/lazy-dialog'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { NativeSelect } from '@/components/ui/native-select'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import type { Member } from '@/lib/api/get-members'
import { formatDate } from '@/lib/format'
import { displayName } from '@/lib/names'
import { INVITABLE_ROLES, managesMember, type InvitableRole, type Role } from '@/lib/roles'
import { useChangeRole, useRemoveMember } from '../api/members'
import { isSelf } from './team-rules'

/**
 * The members table: name, e-mail, role, joined. Owners and admins change
 * the role of, and remove (after a confirmation), anyone but the owner and
 * themselves; everyone else reads it.
 */
export function MembersCard({
  accountId,
  accountName,
  role,
  userEmail,
  members,
  empty,
  onDone,
}: {
  accountId: string
  accountName: string
  role: Role
  userEmail: string
  members: readonly Member[]
  /** Shown under the table when the caller is alone. */
  empty: ReactNode
  onDone: (notice: string) => void
}) {
  const { t } = useTranslation('team')
  const changeRole = useChangeRole(accountId)
  const remove = useRemoveMember(accountId)
  const [removing, setRemoving] = useState<Member | null>(null)
  const anyManaged = members.some((m) => managesMember(role, m.role, isSelf(m, userEmail)))

  const onRoleChange = (member: Member, next: InvitableRole) => {
    changeRole.mutate(
      { userId: member.user_id, role: next },
      { onSuccess: () => onDone(t('members.role_changed', { name: displayName(member), role: t(`roles.${next}`) })) },
    )
  }

  const confirmRemove = () => {
    if (!removing) return
    const name = displayName(removing)
    remove.mutate(removing.user_id, {
      onSuccess: () => {
        setRemoving(null)
        onDone(t('members.removed', { name }))
      },
    })
  }

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{t('members.title')}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Table aria-label={t('members.list', { account: accountName })}>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{t('members.columns.name')}</TableHead>
              <TableHead scope="col">{t('members.columns.email')}</TableHead>
              <TableHead scope="col">{t('members.columns.role')}</TableHead>
              <TableHead scope="col" className="hidden sm:table-cell">
                {t('members.columns.joined')}
              </TableHead>
              {anyManaged && (
                <TableHead scope="col">
                  <span className="sr-only">{t('members.columns.actions')}</span>
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {members.map((member) => {
              const self = isSelf(member, userEmail)
              const managed = managesMember(role, member.role, self)
              const name = displayName(member)
              return (
                <TableRow key={member.user_id} data-testid="member-row">
                  <TableCell className="font-medium">
                    {name}
                    {self && <span className="ms-1 text-xs text-muted-foreground">({t('members.you')})</span>}
                  </TableCell>
                  <TableCell className="break-all">{member.email}</TableCell>
                  <TableCell>
                    {managed ? (
                      <NativeSelect
                        className="w-32"
                        aria-label={t('members.role_of', { name })}
                        value={member.role}
                        disabled={changeRole.isPending}
                        onChange={(event) => onRoleChange(member, event.target.value as InvitableRole)}
                      >
                        {INVITABLE_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {t(`roles.${r}`)}
                          </option>
                        ))}
                      </NativeSelect>
                    ) : (
                      t(`roles.${member.role}`)
                    )}
                  </TableCell>
                  <TableCell className="hidden whitespace-nowrap sm:table-cell">
                    <time dateTime={member.joined_at}>{formatDate(member.joined_at)}</time>
                  </TableCell>
                  {anyManaged && (
                    <TableCell className="text-right">
                      {managed && (
                        <Button
                          variant="outline"
                          size="sm"
                          aria-label={t('members.remove_label', { name })}
                          onClick={() => {
                            remove.reset()
                            setRemoving(member)
                          }}
                        >
                          <UserMinus aria-hidden="true" />
                          <span className="max-sm:sr-only">{t('members.remove')}</span>
                        </Button>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
        {empty}
      </CardContent>
      <ConfirmationDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('members.remove_dialog.title', { name: removing ? displayName(removing) : '' })}
        description={t('members.remove_dialog.text', { name: removing ? displayName(removing) : '', account: accountName })}
        cancelLabel={t('members.remove_dialog.cancel')}
        confirmLabel={t('members.remove_dialog.confirm')}
        destructive
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </Card>
  )
}
