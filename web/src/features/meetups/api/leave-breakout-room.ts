import { api, unwrap } from '@/api/client'

/** leaveBreakoutRoom is POST /api/meetings/{roomId}/leave-breakout-room: the peer goes back to the main room. */
export const leaveBreakoutRoom = async (roomId: string, peerId: string) =>
  unwrap(await api.POST('/api/meetings/{roomId}/leave-breakout-room', { params: { path: { roomId } }, body: { peerId } }))
