import { api, unwrap } from '@/api/client'

/** editMinutes is PATCH /api/threads/{threadId}/meeting/minutes. */
export const editMinutes = async (threadId: string, content: string) =>
  unwrap(await api.PATCH('/api/threads/{threadId}/meeting/minutes', { params: { path: { threadId } }, body: { content } }))
