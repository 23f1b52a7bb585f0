import { queryOptions } from '@tanstack/react-query'

// A post's file is read at its signed URL (GET /api/blobs/{id}/{name}),
// the same URL its Download link follows: the signature, given only to
// readers of the post's forum, is the permission, so no bearer header goes
// with it. The viewer fetches a PDF's bytes (same origin, connect-src
// 'self') rather than framing the blob, which is served as a download under
// a sandboxing policy.

/** FileReadError is a file the server would not serve: its HTTP status. */
export class FileReadError extends Error {
  constructor(readonly status: number) {
    super(`the file could not be read (HTTP ${status})`)
  }
}

/** getFileBytes reads a file's bytes. */
export async function getFileBytes(url: string, signal?: AbortSignal): Promise<Uint8Array> {
  const res = await fetch(new Request(url, { signal, credentials: 'same-origin' }))
  if (!res.ok) throw new FileReadError(res.status)
  return new Uint8Array(await res.arrayBuffer())
}

/** getFileSize reads a file's size in bytes from a HEAD request, or undefined when the server does not say. */
export async function getFileSize(url: string, signal?: AbortSignal): Promise<number | undefined> {
  const res = await fetch(new Request(url, { method: 'HEAD', signal, credentials: 'same-origin' }))
  if (!res.ok) throw new FileReadError(res.status)
  const n = Number(res.headers.get('Content-Length'))
  return Number.isFinite(n) && n >= 0 && res.headers.has('Content-Length') ? n : undefined
}

// A blob never changes, so its bytes and size stay fresh; the URL (which a
// new read of the post signs again) is the key. Bytes leave the cache a
// minute after the viewer closes: a PDF may be tens of megabytes.

/** fileBytesQuery: ['files', url, 'bytes']. */
export const fileBytesQuery = (url: string) =>
  queryOptions({
    queryKey: ['files', url, 'bytes'],
    queryFn: ({ signal }) => getFileBytes(url, signal),
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  })

/** fileSizeQuery: ['files', url, 'size']. */
export const fileSizeQuery = (url: string) =>
  queryOptions({
    queryKey: ['files', url, 'size'],
    queryFn: ({ signal }) => getFileSize(url, signal),
    staleTime: Infinity,
    retry: false,
  })
