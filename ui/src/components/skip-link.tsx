import { useTranslation } from 'react-i18next'

/**
 * "Skip to content" (issue 37): the first stop of the keyboard on every page,
 * visually hidden until focused. It moves focus to the page's <main> (every
 * layout has one), so a keyboard user passes the header and the navigation.
 * Focus is moved by hand: a #fragment would go through the router as a
 * navigation, and a <main> is not focusable by itself.
 */
export function SkipLink() {
  const { t } = useTranslation('common')
  const skip = (event: React.MouseEvent<HTMLAnchorElement>) => {
    const main = document.querySelector('main')
    if (!main) return
    event.preventDefault()
    if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1')
    main.focus()
  }
  return (
    <a
      href="#main"
      onClick={skip}
      className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[100] focus:rounded-md focus:bg-background focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:shadow focus:outline-none focus:ring-2 focus:ring-ring"
    >
      {t('skip_to_content')}
    </a>
  )
}
