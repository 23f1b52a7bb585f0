import { api, unwrap } from '@/api/client'

/** deleteMinutes is DELETE /api/threads/{threadId}/meeting/minutes. */
export const deleteMinutes = async (threadId: string) =>
  unwrap(await api.DELETE('/api/threads/{threadId}/meeting/minutes', { params: { path: { threadId } } }))
