import { MutationCache, QueryClient } from '@tanstack/react-query'
import { isApiError } from './api-client'
import { dismissError, reportError } from './error-store'
import { needsSecondFactor } from './second-factor'

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** Do not show the global error popup for this mutation's failures. */
      silent?: boolean
      /**
       * Statuses the screen itself explains (an inline message, a dead-link
       * state): no popup for those, so the customer sees one error at a time.
       */
      shownInline?: readonly number[]
      /** Error codes the screen itself explains (e.g. seat_limit on the plans page), whatever their status. */
      shownInlineCodes?: readonly string[]
      /** Names of errors that are no api answer the screen explains (e.g. PasskeyError, the browser's ceremony). */
      shownInlineNames?: readonly string[]
      /**
       * Fields whose refusal the screen shows beside them (e.g. promotion_code on the plans page): a 422 naming one,
       * or a 429, raises no popup.
       */
      shownInlineFields?: readonly string[]
    }
  }
}

/** Creates the app's QueryClient: failed mutations feed the error popup. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.silent) return
        // A step-up is asked for by the screen itself (StepUpPrompt).
        if (isApiError(error) && error.code === 'reauthentication_required') return
        // The step-up dialog asked for the second factor, and the user closed it.
        if (needsSecondFactor(error)) return
        if (isApiError(error) && mutation.meta?.shownInline?.includes(error.status)) return
        if (isApiError(error) && mutation.meta?.shownInlineCodes?.includes(error.code)) return
        if (mutation.meta?.shownInlineNames?.includes(error.name)) return
        const fields = mutation.meta?.shownInlineFields
        if (isApiError(error) && fields && (error.status === 429 || fields.some((f) => f in error.fields))) return
        if (isApiError(error)) reportError(error)
        else reportError({ status: 500, message: error.message })
      },
      // What failed before has just worked: its popup would now contradict the screen.
      onSuccess: () => dismissError(),
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) =>
          !(isApiError(error) && error.status < 500) && failureCount < 2,
      },
    },
  })
}
