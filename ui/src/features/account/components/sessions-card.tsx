import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { FormError } from '@/components/form-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { formatDate } from '@/lib/format'
import { sessionsQueryOptions, useEndSessions } from '../api/sessions'

/** "Signed-in devices": every live session, with a sign-out for each and for all others. */
export function SessionsCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation('account')
  const { data } = useQuery(sessionsQueryOptions(accountId))
  const end = useEndSessions(accountId)
  const sessions = data?.sessions ?? []
  const others = sessions.filter((s) => !s.current)

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('sessions.title')}</CardTitle>
        <CardDescription>{t('sessions.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ul className="grid gap-2">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3">
              <div className="grid gap-0.5">
                <span className="text-sm font-medium break-all">
                  {s.user_agent || t('sessions.unknown_device')}
                  {s.current ? ` · ${t('sessions.this_device')}` : null}
                </span>
                <span className="text-xs text-muted-foreground">
                  {t('sessions.since', { date: formatDate(s.created_at) })},{' '}
                  {t('sessions.last_seen', { date: formatDate(s.last_seen_at) })}
                </span>
              </div>
              {s.current ? null : (
                <Button variant="outline" size="sm" onClick={() => end.mutate(s.id)} disabled={end.isPending}>
                  {t('sessions.end')}
                </Button>
              )}
            </li>
          ))}
        </ul>
        {data && others.length === 0 ? <p className="text-sm text-muted-foreground">{t('sessions.none')}</p> : null}
        <FormError error={end.error} />
        {others.length > 0 ? (
          <div>
            <Button variant="outline" onClick={() => end.mutate(undefined)} loading={end.isPending}>
              {t('sessions.end_others')}
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  )
}
