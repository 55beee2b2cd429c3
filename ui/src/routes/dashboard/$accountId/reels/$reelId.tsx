import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '@/features/dashboard-shell/components/placeholder-page'

export const Route = createFileRoute('/dashboard/$accountId/reels/$reelId')({
  component: Page,
})

function Page() {
  const { reelId } = Route.useParams()
  return <PlaceholderPage area="reel_detail" id={reelId} />
}
