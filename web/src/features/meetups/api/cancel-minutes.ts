import { api, unwrap } from '@/api/client'

/** cancelMinutes is POST /api/meetings/{roomId}/minutes/cancel: the AI notes stop. */
export const cancelMinutes = async (roomId: string) => unwrap(await api.POST('/api/meetings/{roomId}/minutes/cancel', { params: { path: { roomId } } }))
