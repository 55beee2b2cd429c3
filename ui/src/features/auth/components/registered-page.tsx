import { Link } from '@tanstack/react-router'
import { Trans, useTranslation } from 'react-i18next'
import { MailCheck } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { FormError } from '@/components/form-error'
import { useRequestActivationToken } from '@/lib/api/activation-token'
import { AuthLayout } from './auth-layout'

/** After sign-up: the activation e-mail was sent to `email`, with a resend button. */
export function RegisteredPage({ email }: { email?: string }) {
  const { t } = useTranslation('auth')
  const resend = useRequestActivationToken()
  return (
    <AuthLayout title={t('registered.title')}>
      <div className="grid gap-4 text-sm">
        <MailCheck className="h-10 w-10 text-primary" aria-hidden="true" />
        <p>
          {email ? (
            <Trans t={t} i18nKey="registered.sent_to" values={{ email }} components={{ strong: <strong /> }} />
          ) : (
            t('registered.sent')
          )}
        </p>
        <p className="text-muted-foreground">{t('registered.check_spam')}</p>
        <div role="status" aria-live="polite">
          {resend.isSuccess && <p className="font-medium text-green-700">{t('registered.resent')}</p>}
        </div>
        <FormError error={resend.error} />
        <Button
          variant="outline"
          disabled={!email}
          loading={resend.isPending}
          onClick={() => email && resend.mutate(email)}
        >
          {t('registered.resend')}
        </Button>
        <Link to="/signin" className="text-center text-primary underline-offset-4 hover:underline">
          {t('back_to_signin')}
        </Link>
      </div>
    </AuthLayout>
  )
}
