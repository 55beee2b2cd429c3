import * as v from 'valibot'

// WebAuthn in the browser, without a dependency: the api sends the options of
// navigator.credentials in their JSON form (byte fields base64url) and takes
// the browser's PublicKeyCredential back in the same form.

/** The options answer of every passkey ceremony (POST …/options). */
export const passkeyOptionsSchema = v.object({ ceremony_id: v.string(), public_key: v.record(v.string(), v.unknown()) })
export type PasskeyOptions = v.InferOutput<typeof passkeyOptionsSchema>

/** What the api takes back: the ceremony and the browser's credential as JSON. */
export interface PasskeyAnswer {
  ceremony_id: string
  credential: Record<string, unknown>
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && !!navigator.credentials
}

export function base64urlToBuffer(value: string): ArrayBuffer {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(value.length / 4) * 4, '=')
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes.buffer
}

export function bufferToBase64url(value: ArrayBuffer | ArrayBufferView): string {
  const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

type Descriptor = { id: string; type: string; transports?: string[] }

function descriptors(list: unknown): PublicKeyCredentialDescriptor[] | undefined {
  if (!Array.isArray(list)) return undefined
  return (list as Descriptor[]).map((d) => ({
    ...d,
    id: base64urlToBuffer(d.id),
    type: 'public-key',
    transports: d.transports as AuthenticatorTransport[] | undefined,
  }))
}

/** The creation options (JSON) as navigator.credentials.create takes them. */
export function creationOptions(json: Record<string, unknown>): PublicKeyCredentialCreationOptions {
  const user = json.user as { id: string; name: string; displayName: string }
  return {
    ...(json as unknown as PublicKeyCredentialCreationOptions),
    challenge: base64urlToBuffer(json.challenge as string),
    user: { ...user, id: base64urlToBuffer(user.id) },
    excludeCredentials: descriptors(json.excludeCredentials),
  }
}

/** The request options (JSON) as navigator.credentials.get takes them. */
export function requestOptions(json: Record<string, unknown>): PublicKeyCredentialRequestOptions {
  return {
    ...(json as unknown as PublicKeyCredentialRequestOptions),
    challenge: base64urlToBuffer(json.challenge as string),
    allowCredentials: descriptors(json.allowCredentials),
  }
}

/** A PublicKeyCredential (from create or get) in its JSON form, byte fields base64url. */
export function credentialJSON(credential: PublicKeyCredential): Record<string, unknown> {
  const r = credential.response
  const response: Record<string, unknown> = { clientDataJSON: bufferToBase64url(r.clientDataJSON) }
  if ('attestationObject' in r) {
    const att = r as AuthenticatorAttestationResponse
    response.attestationObject = bufferToBase64url(att.attestationObject)
    if (typeof att.getTransports === 'function') response.transports = att.getTransports()
  } else {
    const a = r as AuthenticatorAssertionResponse
    response.authenticatorData = bufferToBase64url(a.authenticatorData)
    response.signature = bufferToBase64url(a.signature)
    if (a.userHandle) response.userHandle = bufferToBase64url(a.userHandle)
  }
  return {
    id: credential.id,
    rawId: bufferToBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
    response,
  }
}

/** Why the browser's ceremony failed, as the UI says it. */
export type PasskeyFailure = 'cancelled' | 'exists' | 'unsupported' | 'failed'

/** Thrown when navigator.credentials fails or gives nothing. */
export class PasskeyError extends Error {
  readonly reason: PasskeyFailure
  constructor(reason: PasskeyFailure, cause?: unknown) {
    super(`passkey ${reason}`, { cause })
    this.name = 'PasskeyError'
    this.reason = reason
  }
}

/** The i18n key (passkeys namespace) of a PasskeyError's reason, or null for another error. */
export function passkeyErrorKey(error: unknown): string | null {
  return error instanceof PasskeyError ? `passkeys:errors.${error.reason}` : null
}

function failure(error: unknown): PasskeyError {
  if (error instanceof DOMException) {
    // NotAllowedError: cancelled, timed out, or no passkey chosen.
    if (error.name === 'NotAllowedError' || error.name === 'AbortError') return new PasskeyError('cancelled', error)
    // An excluded credential: this authenticator holds one of the user's already.
    if (error.name === 'InvalidStateError') return new PasskeyError('exists', error)
    if (error.name === 'NotSupportedError' || error.name === 'SecurityError') return new PasskeyError('unsupported', error)
  }
  return new PasskeyError('failed', error)
}

async function ceremony(run: () => Promise<Credential | null>): Promise<Record<string, unknown>> {
  if (!passkeysSupported()) throw new PasskeyError('unsupported')
  let credential: Credential | null
  try {
    credential = await run()
  } catch (error) {
    throw failure(error)
  }
  if (!credential) throw new PasskeyError('cancelled')
  return credentialJSON(credential as PublicKeyCredential)
}

/** Runs navigator.credentials.create with the options of a registration. */
export async function createPasskey(options: PasskeyOptions): Promise<PasskeyAnswer> {
  const credential = await ceremony(() => navigator.credentials.create({ publicKey: creationOptions(options.public_key) }))
  return { ceremony_id: options.ceremony_id, credential }
}

/**
 * Runs navigator.credentials.get with the options of an assertion (a
 * passwordless sign-in, a second factor, a step-up): the answer to post.
 */
export async function getPasskey(options: PasskeyOptions): Promise<PasskeyAnswer> {
  const credential = await ceremony(() => navigator.credentials.get({ publicKey: requestOptions(options.public_key) }))
  return { ceremony_id: options.ceremony_id, credential }
}
