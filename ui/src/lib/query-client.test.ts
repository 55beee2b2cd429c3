import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from './api-client'
import { dismissError, getReportedError, reportError } from './error-store'
import { createQueryClient } from './query-client'

afterEach(() => dismissError())

function run(meta: Record<string, unknown> | undefined, fn: () => Promise<unknown>) {
  const client = createQueryClient()
  return client
    .getMutationCache()
    .build(client, { mutationFn: fn, meta })
    .execute(undefined)
    .catch(() => {})
}

describe('the error popup: one error at a time', () => {
  it('a failure the screen explains inline (shownInline) raises no popup', async () => {
    await run({ shownInline: [401] }, () => Promise.reject(new ApiError(401, 'unauthorized', 'Unauthorized')))
    expect(getReportedError()).toBeNull()
  })

  it('other statuses of the same mutation still raise it', async () => {
    await run({ shownInline: [401] }, () => Promise.reject(new ApiError(500, 'internal', 'x')))
    expect(getReportedError()?.status).toBe(500)
  })

  it('a code the screen explains (shownInlineCodes) raises no popup; another code of that status does', async () => {
    await run({ shownInlineCodes: ['seat_limit'] }, () => Promise.reject(new ApiError(409, 'seat_limit', 'full')))
    expect(getReportedError()).toBeNull()
    await run({ shownInlineCodes: ['seat_limit'] }, () => Promise.reject(new ApiError(409, 'conflict', 'x')))
    expect(getReportedError()?.status).toBe(409)
  })

  it('a field the screen shows refused beside it (shownInlineFields) raises no popup, nor a 429; another 422 does (issue 38)', async () => {
    const meta = { shownInlineFields: ['promotion_code'] }
    await run(meta, () => Promise.reject(new ApiError(422, 'unprocessable_entity', 'x', { promotion_code: 'promotion_used_up' })))
    expect(getReportedError()).toBeNull()
    await run(meta, () => Promise.reject(new ApiError(429, 'too_many_requests', 'x', {}, 60)))
    expect(getReportedError()).toBeNull()
    await run(meta, () => Promise.reject(new ApiError(422, 'unprocessable_entity', 'x', { plan: 'invalid_value' })))
    expect(getReportedError()?.status).toBe(422)
  })

  it('a success clears the popup of an earlier failure', async () => {
    reportError({ status: 444, message: 'Passwords do not match' })
    await run(undefined, () => Promise.resolve('ok'))
    expect(getReportedError()).toBeNull()
  })
})
