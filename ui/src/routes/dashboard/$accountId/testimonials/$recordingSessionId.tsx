import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '@/features/dashboard-shell/components/placeholder-page'

export const Route = createFileRoute('/dashboard/$accountId/testimonials/$recordingSessionId')({
  component: Page,
})

function Page() {
  const { recordingSessionId } = Route.useParams()
  return <PlaceholderPage area="testimonial_detail" id={recordingSessionId} />
}
