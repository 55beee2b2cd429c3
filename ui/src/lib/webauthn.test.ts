import { afterEach, describe, expect, it, vi } from 'vitest'
import { creationOptionsBody, requestOptionsBody, stubPasskeys, unstubPasskeys } from '@/test/webauthn'
import {
  base64urlToBuffer,
  bufferToBase64url,
  createPasskey,
  creationOptions,
  getPasskey,
  PasskeyError,
  passkeysSupported,
  requestOptions,
} from './webauthn'

afterEach(() => {
  unstubPasskeys()
  vi.unstubAllGlobals()
})

const bytesOf = (b: ArrayBuffer | BufferSource | undefined) => [...new Uint8Array(b as ArrayBuffer)]

describe('webauthn', () => {
  it('base64url round-trips any bytes, without padding', () => {
    const all = new Uint8Array(256).map((_, i) => i)
    const text = bufferToBase64url(all.buffer)
    expect(text).not.toMatch(/[+/=]/)
    expect(bytesOf(base64urlToBuffer(text))).toEqual([...all])
    expect(bufferToBase64url(new Uint8Array([0xfb, 0xff]))).toBe('-_8')
    expect(bytesOf(base64urlToBuffer('-_8'))).toEqual([0xfb, 0xff])
  })

  it('turns the JSON options into what navigator.credentials takes', () => {
    const c = creationOptions(creationOptionsBody.public_key)
    expect(bytesOf(c.challenge)).toEqual([0, 1, 2])
    expect(bytesOf(c.user.id)).toEqual([7, 8, 9])
    expect(c.user.name).toBe('jane@example.com')
    expect(bytesOf(c.excludeCredentials?.[0].id)).toEqual([0xfb, 0xff])
    expect(c.authenticatorSelection?.userVerification).toBe('required')
    const r = requestOptions({ ...requestOptionsBody.public_key, allowCredentials: [{ type: 'public-key', id: 'AQID' }] })
    expect(bytesOf(r.challenge)).toEqual([0, 1, 2])
    expect(bytesOf(r.allowCredentials?.[0].id)).toEqual([1, 2, 3])
    expect(r.rpId).toBe('localhost')
  })

  it('answers the credential in its JSON form with the ceremony', async () => {
    const creds = stubPasskeys()
    const created = await createPasskey(creationOptionsBody)
    expect(created.ceremony_id).toBe('cer-1')
    expect(created.credential).toMatchObject({
      id: 'AQID',
      rawId: 'AQID',
      type: 'public-key',
      response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['internal'] },
    })
    const got = await getPasskey(requestOptionsBody)
    expect(got).toEqual({
      ceremony_id: 'cer-2',
      credential: {
        id: 'AQID',
        rawId: 'AQID',
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: { clientDataJSON: 'e30', authenticatorData: 'CQ', signature: '-_8', userHandle: 'Bw' },
      },
    })
    expect(bytesOf(creds.get.mock.calls[0][0].publicKey?.challenge)).toEqual([0, 1, 2])
  })

  it('says why the browser failed: cancelled, exists, unsupported', async () => {
    stubPasskeys(
      async () => Promise.reject(new DOMException('excluded', 'InvalidStateError')),
      async () => Promise.reject(new DOMException('cancelled', 'NotAllowedError')),
    )
    await expect(createPasskey(creationOptionsBody)).rejects.toMatchObject({ reason: 'exists' })
    await expect(getPasskey(requestOptionsBody)).rejects.toMatchObject({ reason: 'cancelled' })
    unstubPasskeys()
    vi.unstubAllGlobals()
    expect(passkeysSupported()).toBe(false)
    await expect(getPasskey(requestOptionsBody)).rejects.toBeInstanceOf(PasskeyError)
    stubPasskeys(undefined, async () => null)
    await expect(getPasskey(requestOptionsBody)).rejects.toMatchObject({ reason: 'cancelled' })
  })
})
