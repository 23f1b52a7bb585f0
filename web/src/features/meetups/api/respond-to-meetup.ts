import { api, unwrap } from '@/api/client'

/** respond is PUT /api/threads/{threadId}/meeting/response: an invitee's yes or no. */
export const respond = async (threadId: string, response: 'yes' | 'no') =>
  unwrap(await api.PUT('/api/threads/{threadId}/meeting/response', { params: { path: { threadId } }, body: { response } }))
