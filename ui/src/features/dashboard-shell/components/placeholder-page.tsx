import { useTranslation } from 'react-i18next'
import { Construction } from 'lucide-react'
import { Card, CardContent } from '@/components/ui/card'

export type PlaceholderArea =
  | 'testimonials'
  | 'testimonial_detail'
  | 'spaces'
  | 'space_edit'
  | 'showcases'
  | 'showcase_detail'
  | 'reels'
  | 'reel_detail'
  | 'integrations'

/** Areas whose content is not specified yet: a title and a short text. */
export function PlaceholderPage({ area, id }: { area: PlaceholderArea; id?: string }) {
  const { t } = useTranslation('dashboard-shell')
  return (
    <section className="mx-auto grid w-full max-w-5xl gap-4 p-4 md:p-8">
      <h1 className="text-2xl font-semibold">{t(`areas.${area}.title`)}</h1>
      <Card>
        <CardContent className="flex items-center gap-4 pt-6 text-sm text-muted-foreground">
          <Construction className="h-8 w-8 shrink-0" aria-hidden="true" />
          <div>
            <p>{t(`areas.${area}.text`)}</p>
            {id && <p className="mt-1 font-mono text-xs">{id}</p>}
          </div>
        </CardContent>
      </Card>
    </section>
  )
}
