import { LOGO_MAX_BYTES, type LogoContentType } from '@/lib/constants'
import type { LogoUpload } from '../api/upload-logo'

// The client-side checks of a chosen or dropped logo (SPEC §5), made before
// anything is sent, and the reading of the server's refusal reasons.

// Maps, not object literals: a name like "x.constructor" must not find anything.
const TYPE_BY_EXTENSION = new Map<string, LogoContentType>([
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
])
const TYPE_BY_MIME = new Map<string, LogoContentType>([
  ['image/png', 'image/png'],
  ['image/jpeg', 'image/jpeg'],
  ['image/jpg', 'image/jpeg'],
  ['image/pjpeg', 'image/jpeg'],
])
const EXTENSION_BY_TYPE: Record<LogoContentType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' }

export type LogoFileProblem = 'not_an_image' | 'too_large'

export type LogoFileCheck = { ok: true; upload: LogoUpload } | { ok: false; problem: LogoFileProblem }

/**
 * A png or jpeg of at most 10 MB passes. The server derives the signed
 * Content-Type from the file name's extension, so the extension decides the
 * type; a name without a known extension passes on the browser's type alone
 * and is sent with the matching extension.
 */
export function checkLogoFile(file: File): LogoFileCheck {
  const name = file.name.trim()
  const dot = name.lastIndexOf('.')
  const byExtension = dot >= 0 ? TYPE_BY_EXTENSION.get(name.slice(dot + 1).toLowerCase()) : undefined
  const byMime = TYPE_BY_MIME.get(file.type.toLowerCase())
  const contentType = file.type && !byMime ? undefined : (byExtension ?? byMime)
  if (!contentType) return { ok: false, problem: 'not_an_image' }
  if (file.size > LOGO_MAX_BYTES) return { ok: false, problem: 'too_large' }
  const filename = byExtension ? name : `${name || 'logo'}.${EXTENSION_BY_TYPE[contentType]}`
  return { ok: true, upload: { file, filename, contentType } }
}

/**
 * Why the server refused the last upload (account.logo_error). Kept here, not
 * in lib/constants, which the sign-in page downloads.
 */
const LOGO_REFUSALS = ['not_an_image', 'too_large', 'too_many_pixels', 'unreadable', 'missing', 'failed'] as const
export type LogoRefusal = (typeof LOGO_REFUSALS)[number]

/** account.logo_error as a known reason; an unknown one reads as 'failed', none as null. */
export function logoRefusal(logoError: string | null | undefined): LogoRefusal | null {
  if (!logoError) return null
  return (LOGO_REFUSALS as readonly string[]).includes(logoError) ? (logoError as LogoRefusal) : 'failed'
}
