import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { useFocusOnMount } from '@/lib/use-focus-on-mount'

/**
 * Recovery codes shown once: copy, download as a text file, and "I have
 * saved them", which closes the list for good. Focus moves to its heading
 * when the codes appear.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('mfa')
  const [copied, setCopied] = useState(false)
  const heading = useFocusOnMount<HTMLHeadingElement>()
  const text = codes.join('\n') + '\n'
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
    const a = document.createElement('a')
    a.href = url
    a.download = 'kudos-recovery-codes.txt'
    a.click()
    URL.revokeObjectURL(url)
  }
  return (
    <section aria-labelledby="recovery-codes-title" className="grid gap-3 rounded-md border p-3">
      <h3 id="recovery-codes-title" ref={heading} tabIndex={-1} className="font-medium outline-none">
        {t('codes.title')}
      </h3>
      <p className="text-sm text-muted-foreground">{t('codes.text')}</p>
      <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label={t('codes.title')}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
        >
          {t('codes.copy')}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={download}>
          {t('codes.download')}
        </Button>
        <Button type="button" size="sm" onClick={onDone}>
          {t('codes.saved')}
        </Button>
        <span role="status" aria-live="polite" className="self-center text-sm text-green-700">
          {copied ? t('codes.copied') : null}
        </span>
      </div>
    </section>
  )
}
