import { afterEach, describe, expect, it, vi } from 'vitest'
import * as v from 'valibot'
import { ApiError, apiRequest, parseApiError, setUnauthorizedHandler } from './api-client'
import { getToken, saveSession } from './session'

function mockFetch(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fn = vi.fn(async () =>
    new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers,
    }),
  )
  vi.stubGlobal('fetch', fn)
  return fn
}

afterEach(() => {
  vi.unstubAllGlobals()
  setUnauthorizedHandler(() => {})
})

describe('parseApiError', () => {
  it('reads the error shape', () => {
    const error = parseApiError(
      422,
      JSON.stringify({
        error: { status: 422, code: 'unprocessable_entity', message: 'Unprocessable entity', fields: { email: 'invalid_email' } },
      }),
    )
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({
      status: 422,
      code: 'unprocessable_entity',
      message: 'Unprocessable entity',
      fields: { email: 'invalid_email' },
    })
  })
  it('falls back on the SPEC §8 catalogue for a body that is not the error shape', () => {
    expect(parseApiError(500, '<html>oops</html>')).toMatchObject({ status: 500, code: 'internal', message: 'Internal server error', fields: {} })
    expect(parseApiError(409, '')).toMatchObject({ code: 'conflict', message: 'Edit conflict' })
    expect(parseApiError(444, '{}')).toMatchObject({ code: 'passwords_do_not_match', message: 'Passwords do not match' })
  })
  it('knows every status of the Go catalogue (api/errors.go, through error-catalogue.json)', () => {
    expect(parseApiError(413, '')).toMatchObject({ code: 'payload_too_large', message: 'Payload too large' })
    expect(parseApiError(429, '')).toMatchObject({ code: 'too_many_requests', message: 'Too many requests' })
    expect(parseApiError(431, '')).toMatchObject({ code: 'bad_request', message: 'Request header fields too large' })
    expect(parseApiError(503, 'Service Unavailable')).toMatchObject({ code: 'unavailable', message: 'Service unavailable' })
  })
  it('keeps 403 user_not_activated and null fields', () => {
    const error = parseApiError(403, JSON.stringify({ error: { status: 403, code: 'user_not_activated', message: 'x', fields: null } }))
    expect(error).toMatchObject({ status: 403, code: 'user_not_activated', fields: {} })
  })
  it('reads Retry-After on 429', () => {
    expect(parseApiError(429, '', '30').retryAfter).toBe(30)
  })
})

describe('apiRequest', () => {
  it('sends JSON with the bearer token and validates the answer', async () => {
    saveSession({ token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'a' })
    const fetch = mockFetch(201, { email: 'a@b.co' })
    const result = await apiRequest('/v1/x', { method: 'POST', body: { a: 1 }, auth: true, schema: v.object({ email: v.string() }) })
    expect(result).toEqual({ email: 'a@b.co' })
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/v1/x')
    expect(init.body).toBe('{"a":1}')
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok')
  })
  it('sends the cookies of its own origin (the device cookie of the sign-in)', async () => {
    const fetch = mockFetch(201, { token: 't', token_expiry: '2099-01-01T00:00:00Z', account_id: 'a' })
    await apiRequest('/v1/auth/signin', { method: 'POST', body: { email: 'a@b.co', password: 'x' } })
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(init.credentials).toBe('same-origin')
  })
  it('returns undefined for 204', async () => {
    mockFetch(204, undefined)
    await expect(apiRequest('/v1/auth/signout', { method: 'POST' })).resolves.toBeUndefined()
  })
  it('rejects an answer that does not match the schema', async () => {
    mockFetch(200, { nope: true })
    await expect(apiRequest('/v1/x', { schema: v.object({ email: v.string() }) })).rejects.toMatchObject({ status: 500 })
  })
  it('throws a typed ApiError', async () => {
    mockFetch(422, { error: { status: 422, code: 'unprocessable_entity', message: 'm', fields: { vat_id: 'invalid_vat_id' } } })
    await expect(apiRequest('/v1/x', { method: 'PATCH', body: {} })).rejects.toMatchObject({
      status: 422,
      fields: { vat_id: 'invalid_vat_id' },
    })
  })
  it('clears the session and calls the handler on 401 from a signed-in call', async () => {
    saveSession({ token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'a' })
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    mockFetch(401, { error: { status: 401, code: 'unauthorized', message: 'Unauthorized' } })
    await expect(apiRequest('/v1/accounts/a', { auth: true })).rejects.toMatchObject({ status: 401 })
    expect(getToken()).toBeNull()
    expect(handler).toHaveBeenCalledOnce()
  })
  it('leaves the session alone on 401 from sign-in (bad credentials)', async () => {
    saveSession({ token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'a' })
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    mockFetch(401, { error: { status: 401, code: 'unauthorized', message: 'Unauthorized' } })
    await expect(apiRequest('/v1/auth/signin', { method: 'POST', body: {} })).rejects.toBeInstanceOf(ApiError)
    expect(getToken()).toBe('tok')
    expect(handler).not.toHaveBeenCalled()
  })
  it('turns a network failure into 503', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))))
    await expect(apiRequest('/v1/x')).rejects.toMatchObject({ status: 503, code: 'unavailable' })
  })
})
