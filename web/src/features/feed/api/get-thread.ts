import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { feedKeys, type Thread } from '../lib/thread-cache'

// Read as the schema's Thread: see listChannelThreads.
export async function getThread(threadId: string, signal?: AbortSignal): Promise<Thread> {
  return unwrap(await api.GET('/api/threads/{threadId}', { params: { path: { threadId } }, signal })) as Thread
}

/** threadQuery: ['threads', threadId], the post with every comment. */
export const threadQuery = (threadId: string) =>
  queryOptions({
    queryKey: feedKeys.thread(threadId),
    queryFn: ({ signal }) => getThread(threadId, signal),
  })

export const useThread = (threadId: string, enabled = true) => useQuery({ ...threadQuery(threadId), enabled })
