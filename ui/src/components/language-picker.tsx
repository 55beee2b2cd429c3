import { useTranslation } from 'react-i18next'
import { NativeSelect } from '@/components/ui/native-select'
import { currentLanguage, isLanguage, LANGUAGES, setLanguage } from '@/lib/i18n'

export const LANGUAGE_NAMES: Record<(typeof LANGUAGES)[number], string> = {
  en: 'English',
  nl: 'Nederlands',
  fr: 'Français',
}

/** Switches the UI language (kept in localStorage `language`). */
export function LanguagePicker({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('common')
  return (
    <NativeSelect
      className={className ?? 'w-36'}
      aria-label={t('language.label')}
      value={isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : currentLanguage()}
      onChange={(event) => {
        const value = event.target.value
        if (isLanguage(value)) void setLanguage(value)
      }}
    >
      {LANGUAGES.map((lang) => (
        <option key={lang} value={lang}>
          {LANGUAGE_NAMES[lang]}
        </option>
      ))}
    </NativeSelect>
  )
}
