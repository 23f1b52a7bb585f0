import { queryOptions } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type LinkPreviewResult = Schemas['LinkPreviewResult']

/**
 * AttachedLink is a post's link as the composer holds it: the server's
 * reading of the page (LinkPreviewResult), or a bare address when the
 * preview failed. The contract keeps a post's `preview` as an opaque object
 * (ThreadLink), so the typed preview is what the composer attaches.
 */
export type AttachedLink = Omit<Schemas['ThreadLink'], 'preview'> & { preview?: Schemas['LinkPreview'] }

/** toThreadLink is the link as the post request carries it. */
export const toThreadLink = (l: AttachedLink): Schemas['ThreadLink'] => l as Schemas['ThreadLink']

/** getLinkPreview asks the server to read a page (GET /api/links/preview): the link as a post attaches it, preview included. */
export async function getLinkPreview(url: string, signal?: AbortSignal): Promise<LinkPreviewResult> {
  return unwrap(await api.GET('/api/links/preview', { params: { query: { url } }, signal }))
}

/** linkPreviewQuery: ['links', 'preview', {url}]; a failed preview is not retried (the dialog goes on without one). */
export const linkPreviewQuery = (url: string) =>
  queryOptions({
    queryKey: ['links', 'preview', { url }],
    queryFn: ({ signal }) => getLinkPreview(url, signal),
    staleTime: 600_000,
    retry: false,
  })
