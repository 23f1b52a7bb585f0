import { ApiError, api, unwrap, type ErrorBody, type Schemas } from '@/api/client'

/** UploadResult is a finished upload (spec 001 §3): a post takes its url as image.url, or id, name, url and mediaType as its file. */
export type UploadResult = Schemas['Upload']
export type UploadTicket = Schemas['UploadTicket']
export type UploadKind = Schemas['UploadCreateRequest']['kind']

export type UploadOptions = { signal?: AbortSignal; onProgress?: (percent: number) => void }

/** createUpload declares an upload (POST /api/sas) and gets the signed URL to put its bytes to. */
export async function createUpload(file: File, kind: UploadKind, signal?: AbortSignal): Promise<UploadTicket> {
  return unwrap(
    await api.POST('/api/sas', {
      body: { kind, name: file.name, size: file.size, mediaType: file.type || null },
      signal,
    }),
  )
}

/**
 * putBlob sends the bytes to the ticket's signed URL with XMLHttpRequest,
 * the only browser API that reports upload progress. The URL is the
 * permission, so no bearer header goes with it. It resolves with the upload
 * result, and rejects with the API's error (its catalogue code and details)
 * or with an AbortError.
 */
export function putBlob(ticket: UploadTicket, file: Blob, { signal, onProgress }: UploadOptions = {}): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('upload aborted', 'AbortError'))
    const xhr = new XMLHttpRequest()
    xhr.open(ticket.method, ticket.url)
    xhr.responseType = 'text'
    if (file.type) xhr.setRequestHeader('Content-Type', file.type)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(Math.min(100, Math.floor((e.loaded / e.total) * 100)))
    }
    xhr.onload = () => {
      let body: unknown
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined
      } catch {
        body = undefined
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) {
        onProgress?.(100)
        resolve(body as UploadResult)
      } else reject(new ApiError(xhr.status, body as Partial<ErrorBody> | undefined))
    }
    xhr.onerror = () => reject(new TypeError('upload: network error'))
    xhr.onabort = () => reject(new DOMException('upload aborted', 'AbortError'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(file)
  })
}

/** uploadFile declares the file as kind, then puts its bytes, reporting progress in percent. */
export async function uploadFile(file: File, kind: UploadKind, opts: UploadOptions = {}): Promise<UploadResult> {
  const ticket = await createUpload(file, kind, opts.signal)
  return putBlob(ticket, file, opts)
}
