import { useTranslation } from 'react-i18next'
import { AuthLayout } from './auth-layout'
import { SigninForm } from './signin-form'

export function SigninPage() {
  const { t } = useTranslation('auth')
  return (
    <AuthLayout title={t('signin.title')} description={t('signin.description')}>
      <SigninForm />
    </AuthLayout>
  )
}
