import { createFileRoute } from '@tanstack/react-router'
import { PlaceholderPage } from '@/features/dashboard-shell/components/placeholder-page'

export const Route = createFileRoute('/dashboard/$accountId/spaces/')({
  component: () => <PlaceholderPage area="spaces" />,
})
