import { createFileRoute } from '@tanstack/react-router'
import { RequestFeaturePage } from '@/features/feature-request/components/request-feature-page'

export const Route = createFileRoute('/dashboard/$accountId/request-feature')({
  component: RequestFeatureRoute,
})

function RequestFeatureRoute() {
  const { accountId } = Route.useParams()
  return <RequestFeaturePage accountId={accountId} />
}
