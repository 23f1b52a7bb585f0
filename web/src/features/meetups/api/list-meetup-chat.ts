import { infiniteQueryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { meetingKeys } from './keys'

/** The Meet Up chat's page size (spec 002 §9): 20 messages. */
export const CHAT_PAGE = 20

/** meetupChatQuery is GET /api/meetings/{roomId}/chat/threads, newest first page by page; the next page is what came before the oldest loaded. */
export const meetupChatQuery = (roomId: string) =>
  infiniteQueryOptions({
    queryKey: meetingKeys.chat(roomId),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }) =>
      unwrap(
        await api.GET('/api/meetings/{roomId}/chat/threads', {
          params: { path: { roomId }, query: { pageSize: CHAT_PAGE, ...(pageParam ? { createdBefore: pageParam } : {}) } },
          signal,
        }),
      ),
    getNextPageParam: (last) => (last.results.length < CHAT_PAGE ? undefined : last.results.reduce((min, m) => (m.createdOn < min ? m.createdOn : min), last.results[0]!.createdOn)),
  })
