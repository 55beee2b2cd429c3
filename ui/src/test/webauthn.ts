import { vi } from 'vitest'

// A browser with WebAuthn, for tests: window.PublicKeyCredential exists and
// navigator.credentials.create/get are mocks answering fake credentials.

const bytes = (...values: number[]) => new Uint8Array(values).buffer

/** A credential as navigator.credentials.create answers it. */
export function fakeAttestation() {
  return {
    id: 'AQID',
    rawId: bytes(1, 2, 3),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    getClientExtensionResults: () => ({}),
    response: { clientDataJSON: bytes(123, 125), attestationObject: bytes(0xa0), getTransports: () => ['internal'] },
  }
}

/** A credential as navigator.credentials.get answers it. */
export function fakeAssertion() {
  return {
    id: 'AQID',
    rawId: bytes(1, 2, 3),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    getClientExtensionResults: () => ({}),
    response: { clientDataJSON: bytes(123, 125), authenticatorData: bytes(9), signature: bytes(0xfb, 0xff), userHandle: bytes(7) },
  }
}

/** Gives the test a browser with passkeys; returns the create and get mocks. Undo with unstubPasskeys. */
export function stubPasskeys(
  create: (options: CredentialCreationOptions) => Promise<unknown> = async () => fakeAttestation(),
  get: (options: CredentialRequestOptions) => Promise<unknown> = async () => fakeAssertion(),
) {
  const credentials = { create: vi.fn(create), get: vi.fn(get) }
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {})
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true })
  return credentials
}

/** A browser without WebAuthn again. */
export function unstubPasskeys() {
  Reflect.deleteProperty(navigator, 'credentials')
}

/** The options answer of a ceremony, as the api sends it. */
export const creationOptionsBody = {
  ceremony_id: 'cer-1',
  public_key: {
    rp: { id: 'localhost', name: 'Kudos' },
    user: { id: 'BwgJ', name: 'jane@example.com', displayName: 'Jane Doe' },
    challenge: 'AAEC',
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    excludeCredentials: [{ type: 'public-key', id: '-_8' }],
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  },
}

export const requestOptionsBody = {
  ceremony_id: 'cer-2',
  public_key: { challenge: 'AAEC', rpId: 'localhost', userVerification: 'required' },
}
