import { Link, useParams } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Lock } from 'lucide-react'
import { buttonVariants } from '@/components/ui/button'
import type { RestrictedArea } from '@/lib/roles'

/** A page the user's role may not open, said kindly: who can, and a way on (never an error popup). */
export function RoleRequiredPage({ area }: { area: RestrictedArea }) {
  const { t } = useTranslation('common')
  const { accountId } = useParams({ strict: false })
  return (
    <section className="mx-auto grid w-full max-w-xl justify-items-center gap-4 p-6 text-center md:p-12" data-testid="role-required">
      <Lock className="h-10 w-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-semibold">{t(`role_required.${area}.title`)}</h1>
      <p className="text-muted-foreground">{t(`role_required.${area}.text`)}</p>
      {accountId && (
        <Link className={buttonVariants({ variant: 'outline' })} to="/dashboard/$accountId/testimonials" params={{ accountId }}>
          {t('role_required.back')}
        </Link>
      )}
    </section>
  )
}
