import { describe, expect, it } from 'vitest'
import { LOGO_MAX_BYTES } from '@/lib/constants'
import { checkLogoFile, logoRefusal } from './logo-file'

function file(name: string, type: string, size = 1000): File {
  const f = new File(['x'], name, { type })
  Object.defineProperty(f, 'size', { value: size })
  return f
}

describe('checkLogoFile (SPEC §5: png or jpeg, at most 10 MB)', () => {
  it.each([
    ['logo.png', 'image/png', 'logo.png', 'image/png'],
    ['Logo.PNG', 'image/png', 'Logo.PNG', 'image/png'],
    ['photo.jpg', 'image/jpeg', 'photo.jpg', 'image/jpeg'],
    ['photo.jpeg', 'image/jpeg', 'photo.jpeg', 'image/jpeg'],
    ['photo.jpeg', '', 'photo.jpeg', 'image/jpeg'],
    // The server signs the type of the extension, so the extension decides.
    ['logo.png', 'image/jpeg', 'logo.png', 'image/png'],
    // No known extension: the browser's type decides and the name gets one.
    ['logo', 'image/png', 'logo.png', 'image/png'],
    ['scan', 'image/jpeg', 'scan.jpg', 'image/jpeg'],
  ])('%s (%s) is sent as %s with %s', (name, type, filename, contentType) => {
    const f = file(name, type)
    expect(checkLogoFile(f)).toEqual({ ok: true, upload: { file: f, filename, contentType } })
  })

  it.each([
    ['logo.gif', 'image/gif'],
    ['logo.svg', 'image/svg+xml'],
    ['logo.png', 'image/gif'],
    ['notes.txt', 'text/plain'],
    ['logo', ''],
    ['logo.webp', ''],
    ['x.constructor', ''],
    ['x.toString', 'constructor'],
  ])('%s (%s) is not an image', (name, type) => {
    expect(checkLogoFile(file(name, type))).toEqual({ ok: false, problem: 'not_an_image' })
  })

  it('accepts exactly 10 MB and refuses one byte more', () => {
    expect(checkLogoFile(file('logo.png', 'image/png', LOGO_MAX_BYTES)).ok).toBe(true)
    expect(checkLogoFile(file('logo.png', 'image/png', LOGO_MAX_BYTES + 1))).toEqual({ ok: false, problem: 'too_large' })
    expect(LOGO_MAX_BYTES).toBe(10 * 1024 * 1024)
  })

  it('calls a large non-image not an image', () => {
    expect(checkLogoFile(file('movie.mp4', 'video/mp4', LOGO_MAX_BYTES * 5))).toEqual({ ok: false, problem: 'not_an_image' })
  })
})

describe('logoRefusal', () => {
  it.each([
    ['', null],
    [null, null],
    [undefined, null],
    ['too_many_pixels', 'too_many_pixels'],
    ['missing', 'missing'],
    ['something_new', 'failed'],
  ])('%j → %j', (error, reason) => expect(logoRefusal(error)).toBe(reason))
})
