import { createFileRoute, redirect } from '@tanstack/react-router'
import { getStoredAccountId, hasValidSession } from '@/lib/session'

// The link of a data_export_ready mail: opens the export's page in the
// dashboard of the account last used (the export is the user's, whatever
// the account); signed out, the sign-in page first.
export const Route = createFileRoute('/exports/$exportId')({
  beforeLoad: ({ params }) => {
    const accountId = getStoredAccountId()
    if (!hasValidSession() || !accountId) throw redirect({ to: '/signin' })
    throw redirect({ to: '/dashboard/$accountId/exports/$exportId', params: { accountId, exportId: params.exportId } })
  },
})
