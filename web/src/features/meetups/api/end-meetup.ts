import { api, unwrap } from '@/api/client'

/** endMeeting is POST /api/meetings/{roomId}/end. */
export const endMeeting = async (roomId: string) => unwrap(await api.POST('/api/meetings/{roomId}/end', { params: { path: { roomId } } }))
