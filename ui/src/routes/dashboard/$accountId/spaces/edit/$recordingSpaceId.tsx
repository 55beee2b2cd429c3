import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '@/features/dashboard-shell/components/placeholder-page'

export const Route = createFileRoute('/dashboard/$accountId/spaces/edit/$recordingSpaceId')({
  component: Page,
})

function Page() {
  const { recordingSpaceId } = Route.useParams()
  return <PlaceholderPage area="space_edit" id={recordingSpaceId} />
}
