import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { TriangleAlert } from 'lucide-react'
import { PublicHeader } from '@/components/public-header'

export type LegalDocument = 'privacy' | 'terms'

const SECTIONS: Record<LegalDocument, readonly string[]> = {
  privacy: ['who', 'what', 'why', 'processors', 'retention', 'rights', 'contact'],
  terms: ['service', 'account', 'plans', 'content', 'liability', 'termination', 'law'],
}

/**
 * The privacy policy and the terms of use. The text is a placeholder marked
 * as such on the page: the operator replaces it (src/locales/<lang>/legal.json)
 * with their own before going live.
 */
export function LegalPage({ document }: { document: LegalDocument }) {
  const { t } = useTranslation('legal')
  return (
    <div className="flex min-h-screen flex-col bg-muted/40">
      <PublicHeader />
      <main className="flex flex-1 justify-center px-4 py-8">
        <article className="grid w-full max-w-2xl content-start gap-5 rounded-xl border bg-background p-6 text-sm leading-relaxed sm:p-8">
          <h1 className="text-2xl font-semibold">{t(`${document}.title`)}</h1>
          <p
            className="flex items-start gap-2 rounded-md border border-amber-500/40 bg-amber-50 px-3 py-2 text-amber-900"
            data-testid="legal-placeholder"
          >
            <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            {t('placeholder')}
          </p>
          <p className="text-slate-600">{t(`${document}.intro`)}</p>
          {SECTIONS[document].map((section) => (
            <section key={section} className="grid gap-1.5">
              <h2 className="text-base font-semibold">{t(`${document}.sections.${section}.title`)}</h2>
              <p>{t(`${document}.sections.${section}.text`)}</p>
            </section>
          ))}
          <Link to="/signin" className="w-fit font-medium text-primary underline-offset-4 hover:underline">
            {t('back')}
          </Link>
        </article>
      </main>
    </div>
  )
}
