import * as v from 'valibot'
import { clearSession, getToken } from './session'
import { takeEarlyResponse } from './early-requests'
import errorCatalogue from './error-catalogue.json'

// Thin fetch wrapper for the Go api (same origin, JSON, base /v1). Every error
// answer has the shape {"error":{status,code,message,fields}} and becomes an
// ApiError; a 401 on a signed-in call ends the session.

export type FieldErrors = Record<string, string>

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly fields: FieldErrors
  readonly retryAfter: number | null

  constructor(
    status: number,
    code: string,
    message: string,
    fields: FieldErrors = {},
    retryAfter: number | null = null,
  ) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = fields
    this.retryAfter = retryAfter
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

// SPEC §8 status → code and message, used when the body carries none. Generated
// from the Go catalogue (api/errors.go) by `go generate ./api`; a Go test fails
// when they disagree.
const catalogue: Record<string, { code: string; message: string } | undefined> = errorCatalogue
const defaultCodes = (status: number) => catalogue[status]?.code
const defaultMessages = (status: number) => catalogue[status]?.message

const errorBodySchema = v.object({
  error: v.object({
    status: v.optional(v.number()),
    code: v.optional(v.string()),
    message: v.optional(v.string()),
    fields: v.optional(v.nullable(v.record(v.string(), v.string()))),
  }),
})

/** Turns a failed response's status, body text and Retry-After header into an ApiError. */
export function parseApiError(
  status: number,
  bodyText: string,
  retryAfterHeader: string | null = null,
): ApiError {
  const retryAfter = parseRetryAfter(retryAfterHeader)
  let body: unknown
  try {
    body = bodyText ? JSON.parse(bodyText) : null
  } catch {
    body = null
  }
  const parsed = v.safeParse(errorBodySchema, body)
  const fallbackMessage = defaultMessages(status) ?? `Request failed with status ${status}`
  if (!parsed.success) {
    return new ApiError(status, defaultCodes(status) ?? 'unknown', fallbackMessage, {}, retryAfter)
  }
  const e = parsed.output.error
  return new ApiError(
    e.status ?? status,
    e.code ?? defaultCodes(status) ?? 'unknown',
    e.message || fallbackMessage,
    e.fields ?? {},
    retryAfter,
  )
}

function parseRetryAfter(header: string | null): number | null {
  if (!header) return null
  const seconds = Number(header)
  return Number.isFinite(seconds) ? seconds : null
}

let onUnauthorized: () => void = () => {}

let stepUp: () => Promise<boolean> = async () => false

/** Registers the step-up of a change answered 403 second_factor_required: true once verified. */
export function setStepUpHandler(handler: () => Promise<boolean>): void {
  stepUp = handler
}

/** Registers what happens after a signed-in call got 401 (the session is already cleared). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler
}

export interface RequestOptions<TSchema extends v.GenericSchema | undefined> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  /** Valibot schema of the successful answer; omit when the body is ignored. */
  schema?: TSchema
  /** Send the bearer token (signed-in call). */
  auth?: boolean
  signal?: AbortSignal
  /** Set on the retry after a step-up (no second dialog). */
  steppedUp?: boolean
}

type Output<TSchema> = TSchema extends v.GenericSchema ? v.InferOutput<TSchema> : undefined

export async function apiRequest<TSchema extends v.GenericSchema | undefined = undefined>(
  path: string,
  options: RequestOptions<TSchema> = {},
): Promise<Output<TSchema>> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (options.body !== undefined) headers['Content-Type'] = 'application/json'
  const token = options.auth ? getToken() : null
  if (token) headers.Authorization = `Bearer ${token}`

  let response: Response
  try {
    // The first screen's reads may already be on their way (src/boot.ts); one
    // that failed is simply sent again.
    const early = token && (options.method ?? 'GET') === 'GET' ? takeEarlyResponse(path, token) : null
    response =
      (await early?.catch(() => null)) ??
      (await fetch(path, {
        method: options.method ?? 'GET',
        headers,
        // The sign-in sends the browser's device cookie (HttpOnly, Path=/v1/auth),
        // which exempts it from an e-mail's shared sign-in ceiling.
        credentials: 'same-origin',
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      }))
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause
    throw new ApiError(503, 'unavailable', 'The server could not be reached')
  }

  const text = await response.text()
  if (!response.ok) {
    const error = parseApiError(response.status, text, response.headers.get('Retry-After'))
    if (error.status === 401 && options.auth) {
      clearSession()
      onUnauthorized()
    }
    // A change that needs the second factor (issue 29): the step-up dialog asks for it, then the
    // change goes again, once; closed, the caller gets the 403.
    if (error.code === 'second_factor_required' && options.method && options.method !== 'GET' && !options.steppedUp) {
      if (await stepUp()) return apiRequest(path, { ...options, steppedUp: true })
    }
    throw error
  }

  if (!options.schema) return undefined as Output<TSchema>
  let json: unknown
  try {
    json = text ? JSON.parse(text) : {}
  } catch {
    throw new ApiError(500, 'invalid_response', 'The server sent an unreadable answer')
  }
  const result = v.safeParse(options.schema, json)
  if (!result.success) {
    throw new ApiError(500, 'invalid_response', 'The server sent an unexpected answer')
  }
  return result.output as Output<TSchema>
}
