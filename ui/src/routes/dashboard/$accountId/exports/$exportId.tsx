import { createFileRoute } from '@tanstack/react-router'
import { ExportPage } from '@/features/privacy/components/export-page'

export const Route = createFileRoute('/dashboard/$accountId/exports/$exportId')({
  component: ExportRoute,
})

function ExportRoute() {
  const { exportId } = Route.useParams()
  return <ExportPage exportId={exportId} />
}
