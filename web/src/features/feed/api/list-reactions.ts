import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { feedKeys } from '../lib/thread-cache'

export async function listReactions(threadId: string, replyId?: string, signal?: AbortSignal) {
  return unwrap(
    await api.GET('/api/thread/{threadId}/reactions', { params: { path: { threadId }, query: replyId ? { replyId } : {} }, signal }),
  )
}

/** reactionsQuery: ['threads', threadId, 'reactions', {replyId}], who reacted. */
export const reactionsQuery = (threadId: string, replyId?: string) =>
  queryOptions({
    queryKey: feedKeys.reactions(threadId, replyId),
    queryFn: ({ signal }) => listReactions(threadId, replyId, signal),
  })

export const useReactions = (threadId: string, replyId: string | undefined, enabled: boolean) =>
  useQuery({ ...reactionsQuery(threadId, replyId), enabled })
