import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { feedKeys, type ThreadPage } from '../lib/thread-cache'

/** FEED_PAGE_SIZE: posts per feed page (spec 001 §9). */
export const FEED_PAGE_SIZE = 10

// openapi-fetch drops the always-null `meeting` from its answer types; the
// API sends it, so the answers are read as the schema's types.
export async function listChannelThreads(channelId: string, createdBefore: string | null, signal?: AbortSignal, hashtag?: string): Promise<ThreadPage> {
  return unwrap(
    await api.GET('/api/channels/{channelId}/threads', {
      params: { path: { channelId }, query: { pageSize: FEED_PAGE_SIZE, ...(createdBefore ? { createdBefore } : {}), ...(hashtag ? { hashtag } : {}) } },
      signal,
    }),
  ) as ThreadPage
}

/**
 * nextCursor is the next page's createdBefore: the smallest createdOn of
 * the last page, or none (the end) when that page was empty (spec 001 §7).
 */
export function nextCursor(last: ThreadPage): string | undefined {
  if (last.results.length === 0) return undefined
  return last.results.reduce((min, t) => (t.createdOn < min ? t.createdOn : min), last.results[0]!.createdOn)
}

/** channelThreadsQuery: ['channels', channelId, 'threads'] (and {hashtag}), pages by createdBefore. */
export const channelThreadsQuery = (channelId: string, hashtag?: string) =>
  infiniteQueryOptions({
    queryKey: feedKeys.channel(channelId, hashtag),
    queryFn: ({ pageParam, signal }) => listChannelThreads(channelId, pageParam, signal, hashtag),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => nextCursor(last),
    staleTime: 300_000, // feed prefetch stale time (spec 001 §9)
  })

export const useChannelThreads = (channelId: string, hashtag?: string) => useInfiniteQuery(channelThreadsQuery(channelId, hashtag))
