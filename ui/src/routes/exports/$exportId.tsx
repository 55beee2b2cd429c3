import { createFileRoute, redirect } from '@tanstack/react-router'
import { getStoredAccountId, hasValidSession } from '@/lib/session'
import { signinReturningTo } from '@/features/auth/api/session-schema'

// The link of a data_export_ready mail: opens the export's page in the
// dashboard of the account last used (the export is the user's, whatever
// the account); signed out, the sign-in page first, which comes back here.
export const Route = createFileRoute('/exports/$exportId')({
  beforeLoad: ({ params, location }) => {
    const accountId = getStoredAccountId()
    if (!hasValidSession() || !accountId) throw redirect(signinReturningTo(location.href))
    throw redirect({ to: '/dashboard/$accountId/exports/$exportId', params: { accountId, exportId: params.exportId } })
  },
})
