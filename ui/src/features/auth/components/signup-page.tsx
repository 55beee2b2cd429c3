import { useTranslation } from 'react-i18next'
import { AuthLayout } from './auth-layout'
import { SignupForm } from './signup-form'

export function SignupPage() {
  const { t } = useTranslation('auth')
  return (
    <AuthLayout title={t('signup.title')} description={t('signup.description')}>
      <SignupForm />
    </AuthLayout>
  )
}
