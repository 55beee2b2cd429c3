import { useState } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { Trans, useTranslation } from 'react-i18next'
import { Loader2, MailX, UserRoundX, Users } from 'lucide-react'
import { FormError } from '@/components/form-error'
import { LoadFailed } from '@/components/load-failed'
import { Button, buttonVariants } from '@/components/ui/button'
import { isApiError } from '@/lib/api-client'
import { useSignout } from '@/lib/api/signout'
import { formatLongDate } from '@/lib/format'
import { hasValidSession, rememberedEmail } from '@/lib/session'
import { invitationQueryOptions, useAcceptInvitation, type PublicInvitation } from '../api/invitation'
import { dashboardHome } from '../api/session-schema'
import { AuthLayout } from './auth-layout'
import { OrDivider } from './or-divider'
import { SignupForm } from './signup-form'

const linkClass = 'font-medium text-primary underline-offset-4 hover:underline'

/** Used, revoked, expired or unknown: one answer for all (the api's 404). */
function InvalidInvitation() {
  const { t } = useTranslation('auth')
  return (
    <AuthLayout title={t('invitation.invalid_title')}>
      <div className="grid gap-4 text-sm">
        <MailX className="h-10 w-10 text-muted-foreground" aria-hidden="true" />
        <p>{t('invitation.invalid_text')}</p>
        <Link className={buttonVariants()} to="/signin">
          {t('back_to_signin')}
        </Link>
      </div>
    </AuthLayout>
  )
}

/**
 * A team invitation's page (/invitation?token=…, issue 26): which account,
 * who invited, the role and until when. Signed out: sign in (and come back
 * here), or sign up with the invited address (read-only) or Google. Signed
 * in as the invited address: accept, and go to that account. Signed in as
 * another: say so, with a way to sign out and continue.
 */
export function InvitationPage({ token }: { token?: string }) {
  const { t, i18n } = useTranslation('auth')
  const invitation = useQuery({ ...invitationQueryOptions(token ?? ''), enabled: Boolean(token) })
  const [signedIn, setSignedIn] = useState(hasValidSession)

  if (!token || (isApiError(invitation.error) && invitation.error.status === 404)) return <InvalidInvitation />
  if (invitation.isError) {
    return (
      <AuthLayout title={t('invitation.title')}>
        <LoadFailed
          message={t('invitation.failed')}
          retrying={invitation.isFetching}
          onRetry={() => void invitation.refetch()}
        />
      </AuthLayout>
    )
  }
  if (!invitation.data) {
    return (
      <AuthLayout title={t('invitation.title')}>
        <div className="flex items-center gap-3 text-sm" role="status">
          <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
          {t('invitation.loading')}
        </div>
      </AuthLayout>
    )
  }

  const inv = invitation.data
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  const values = {
    account: inv.account_name,
    inviter: inv.inviter || t('invitation.someone'),
    role: t(`invitation.roles.${inv.role}`),
    email: inv.email,
    date: formatLongDate(inv.expires_at, language),
  }
  return (
    <AuthLayout
      title={t('invitation.join', { account: inv.account_name })}
      description={<Trans t={t} i18nKey="invitation.invited_by" values={values} components={{ strong: <strong /> }} />}
    >
      <div className="grid gap-4">
        <p className="flex items-start gap-2 rounded-md border bg-muted/50 p-3 text-sm" data-testid="invitation-details">
          <Users className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>{t('invitation.details', values)}</span>
        </p>
        {signedIn ? (
          <SignedIn token={token} invitation={inv} onSignedOut={() => setSignedIn(false)} />
        ) : (
          <SignedOut token={token} invitation={inv} />
        )}
      </div>
    </AuthLayout>
  )
}

/** Signed out: sign in and come back, or sign up here with the invited address. */
function SignedOut({ token, invitation }: { token: string; invitation: PublicInvitation }) {
  const { t } = useTranslation('auth')
  const back = `/invitation?token=${encodeURIComponent(token)}`
  return (
    <>
      <p className="text-sm">
        {t('invitation.have_account')}{' '}
        <Link to="/signin" search={{ redirect: back }} className={linkClass}>
          {t('invitation.signin_to_accept')}
        </Link>
      </p>
      <OrDivider label={t('invitation.or_signup')} />
      <SignupForm invitation={{ token, email: invitation.email }} signinLink={back} />
    </>
  )
}

/** Signed in: accept as this user, or, as another address, the mismatch and a way out. */
function SignedIn({
  token,
  invitation,
  onSignedOut,
}: {
  token: string
  invitation: PublicInvitation
  onSignedOut: () => void
}) {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const accept = useAcceptInvitation(token)
  const signout = useSignout(onSignedOut)
  const current = rememberedEmail()
  const error = isApiError(accept.error) ? accept.error : null
  const mismatch =
    (current !== '' && current.trim().toLowerCase() !== invitation.email.trim().toLowerCase()) ||
    error?.code === 'invitation_email_mismatch'

  if (error?.status === 404) return <p role="alert" className="text-sm text-destructive">{t('invitation.invalid_text')}</p>
  if (mismatch) {
    return (
      <div className="grid gap-3 text-sm" data-testid="invitation-mismatch">
        <UserRoundX className="h-8 w-8 text-amber-600" aria-hidden="true" />
        <h2 className="text-base font-semibold">{t('invitation.mismatch_title')}</h2>
        <p role="alert">
          {current
            ? t('invitation.mismatch_text', { email: invitation.email, current })
            : t('invitation.mismatch_text_unknown', { email: invitation.email })}
        </p>
        <Button loading={signout.isPending} onClick={() => signout.mutate()}>
          {t('invitation.signout_continue')}
        </Button>
      </div>
    )
  }
  return (
    <div className="grid gap-3">
      {error?.code === 'seat_limit' && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {t('invitation.team_full', { inviter: invitation.inviter || t('invitation.someone') })}
        </p>
      )}
      {/* Another refusal the popup does not show (shownInline): said here, generically. */}
      {(error?.status === 403 || error?.status === 409) && error.code !== 'seat_limit' && (
        <FormError error={error} />
      )}
      <Button
        loading={accept.isPending}
        onClick={() => accept.mutate(undefined, { onSuccess: ({ account_id }) => void navigate(dashboardHome(account_id)) })}
      >
        {t('invitation.accept')}
      </Button>
      {current && <p className="text-center text-xs text-muted-foreground">{t('invitation.signed_in_as', { email: current })}</p>}
    </div>
  )
}
