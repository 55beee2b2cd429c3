import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '@/features/dashboard-shell/components/placeholder-page'

export const Route = createFileRoute('/dashboard/$accountId/showcases/$showcaseId')({
  component: Page,
})

function Page() {
  const { showcaseId } = Route.useParams()
  return <PlaceholderPage area="showcase_detail" id={showcaseId} />
}
