import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { requestLogoUpload, storageUploader } from './upload-logo'

// A stand-in for XMLHttpRequest that records the request and lets the test
// play the upload's events.
class FakeXhr {
  static last: FakeXhr
  method = ''
  url = ''
  status = 0
  headers: Record<string, string> = {}
  body: unknown = null
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  ontimeout: (() => void) | null = null
  constructor() {
    FakeXhr.last = this
  }
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: unknown) {
    this.body = body
  }
}

afterEach(() => vi.unstubAllGlobals())

describe('storageUploader.put', () => {
  it('PUTs the file with its exact Content-Type and no Authorization, reporting progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr)
    localStorage.setItem('auth_token', 'secret')
    const file = new File(['0123456789'], 'logo.png', { type: 'image/png' })
    const progress: number[] = []
    const done = storageUploader.put('https://storage.example/bucket/tmp/x?sig=1', file, 'image/png', (p) => progress.push(p))
    const xhr = FakeXhr.last
    expect(xhr.method).toBe('PUT')
    expect(xhr.url).toBe('https://storage.example/bucket/tmp/x?sig=1')
    expect(xhr.headers).toEqual({ 'Content-Type': 'image/png' })
    expect(xhr.body).toBe(file)
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 25, total: 100 })
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 5, total: 0 }) // falls back to file.size (10)
    xhr.status = 200
    xhr.onload?.()
    await expect(done).resolves.toBeUndefined()
    expect(progress).toEqual([25, 50, 100])
  })

  it.each([
    ['a non-2xx answer', (xhr: FakeXhr) => ((xhr.status = 403), xhr.onload?.())],
    ['a network error', (xhr: FakeXhr) => xhr.onerror?.()],
    ['an abort', (xhr: FakeXhr) => xhr.onabort?.()],
  ])('turns %s into a 500', async (_name, fail) => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr)
    const done = storageUploader.put('https://storage.example/x', new File(['x'], 'a.jpg'), 'image/jpeg', () => {})
    expect(FakeXhr.last.headers['Content-Type']).toBe('image/jpeg')
    fail(FakeXhr.last)
    const error = await done.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 500 })
  })
})

describe('requestLogoUpload', () => {
  it('sends the file size, which the server signs into the link', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ presigned_url: 'https://storage.example/x' }), { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    await requestLogoUpload('acc-1', 'logo.png', 12345)
    const init = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1]
    expect(JSON.parse(String(init.body))).toEqual({ filename: 'logo.png', size: 12345 })
  })
})
