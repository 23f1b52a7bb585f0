import { infiniteQueryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { chatKeys } from '../lib/chat-cache'

/** The conversation's page size (spec 002 §9): 20 messages. */
export const MESSAGES_PAGE = 20

/** A conversation, newest first page by page; the next page is what came before the oldest loaded. */
export const messagesQuery = (channelId: string) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(channelId),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }) =>
      unwrap(
        await api.GET('/api/channels/private/{channelId}/threads', {
          params: { path: { channelId }, query: { pageSize: MESSAGES_PAGE, ...(pageParam ? { createdBefore: pageParam } : {}) } },
          signal,
        }),
      ),
    getNextPageParam: (last) => (last.results.length < MESSAGES_PAGE ? undefined : last.results.reduce((min, m) => (m.createdOn < min ? m.createdOn : min), last.results[0]!.createdOn)),
  })
