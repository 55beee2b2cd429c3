import * as v from 'valibot'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ApiError, apiRequest } from '@/lib/api-client'
import { accountQueryOptions } from '@/lib/api/get-account'
import type { LogoContentType } from '@/lib/constants'
import { queryKeys } from '@/lib/query-keys'

// The logo upload in three steps (SPEC §7):
//   1. POST /v1/accounts/{id}/upload-logo {filename, size} → 200 {presigned_url}
//      (409 while a logo is set or processing; 422 fields.filename=not_an_image,
//      fields.size=too_large over 10 MB);
//   2. PUT {presigned_url} with the file and its exact Content-Type, straight to
//      object storage (no bearer token; the type and size are part of the signature);
//   3. PUT /v1/accounts/{id}/upload-logo → 200 {img_url}, now temporary: the
//      server processes the file and the account is polled until it is public.
// A failed step 2 is a 500 (SPEC §8).

const presignSchema = v.object({ presigned_url: v.pipe(v.string(), v.nonEmpty()) })
const finishSchema = v.object({ img_url: v.string() })

export interface LogoUpload {
  file: File
  /** The name the server derives the content type from (.png, .jpg, .jpeg). */
  filename: string
  contentType: LogoContentType
}

function uploadLogoPath(accountId: string): string {
  return `/v1/accounts/${encodeURIComponent(accountId)}/upload-logo`
}

export function requestLogoUpload(accountId: string, filename: string, size: number): Promise<{ presigned_url: string }> {
  return apiRequest(uploadLogoPath(accountId), { method: 'POST', auth: true, body: { filename, size }, schema: presignSchema })
}

export function finishLogoUpload(accountId: string): Promise<{ img_url: string }> {
  return apiRequest(uploadLogoPath(accountId), { method: 'PUT', auth: true, schema: finishSchema })
}

/**
 * Indirection over the storage PUT so tests can replace it. XMLHttpRequest,
 * not fetch: only it reports upload progress.
 */
export const storageUploader = {
  put(url: string, file: Blob, contentType: LogoContentType, onProgress: (percent: number) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest()
      const fail = () => reject(new ApiError(500, 'logo_upload_failed', 'The logo could not be uploaded to storage'))
      xhr.open('PUT', url)
      xhr.setRequestHeader('Content-Type', contentType)
      xhr.upload.onprogress = (event) => {
        const total = event.lengthComputable ? event.total : file.size
        if (total > 0) onProgress(Math.min(100, Math.round((event.loaded / total) * 100)))
      }
      xhr.onload = () => {
        if (xhr.status < 200 || xhr.status >= 300) return fail()
        onProgress(100)
        resolve()
      }
      xhr.onerror = fail
      xhr.onabort = fail
      xhr.ontimeout = fail
      xhr.send(file)
    })
  },
}

export async function uploadLogo(
  accountId: string,
  upload: LogoUpload,
  onProgress: (percent: number) => void,
): Promise<{ img_url: string }> {
  const { presigned_url } = await requestLogoUpload(accountId, upload.filename, upload.file.size)
  await storageUploader.put(presigned_url, upload.file, upload.contentType, onProgress)
  return finishLogoUpload(accountId)
}

export function useUploadLogo(accountId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ onProgress, ...upload }: LogoUpload & { onProgress: (percent: number) => void }) =>
      uploadLogo(accountId, upload, onProgress),
    // Show the processing state at once; the re-fetch that follows confirms it.
    onSuccess: ({ img_url }) =>
      queryClient.setQueryData(accountQueryOptions(accountId).queryKey, (old) =>
        old && { ...old, account: { ...old.account, img_url, logo_url: '', logo_error: '' } },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account(accountId) }),
  })
}
