import { api, unwrap } from '@/api/client'

/** openBreakouts is POST /api/meetings/{roomId}/open-breakouts. */
export const openBreakouts = async (roomId: string) => unwrap(await api.POST('/api/meetings/{roomId}/open-breakouts', { params: { path: { roomId } } }))
