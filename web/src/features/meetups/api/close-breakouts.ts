import { api, unwrap } from '@/api/client'

/** closeBreakouts is POST /api/meetings/{roomId}/close-breakouts. */
export const closeBreakouts = async (roomId: string) => unwrap(await api.POST('/api/meetings/{roomId}/close-breakouts', { params: { path: { roomId } } }))
