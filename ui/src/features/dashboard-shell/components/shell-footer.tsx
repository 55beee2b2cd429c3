import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'

export function ShellFooter() {
  const { t } = useTranslation('dashboard-shell')
  return (
    <footer className="mt-auto flex flex-wrap items-center justify-center gap-4 border-t px-4 py-4 text-xs text-slate-600">
      <span>© Kudos</span>
      <Link to="/privacy-policy" className="hover:underline">
        {t('footer.privacy_policy')}
      </Link>
      <Link to="/terms-of-use" className="hover:underline">
        {t('footer.terms_of_use')}
      </Link>
    </footer>
  )
}
