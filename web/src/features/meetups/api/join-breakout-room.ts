import { api, unwrap } from '@/api/client'

/** joinBreakoutRoom is POST /api/meetings/{roomId}/join-breakout-room: the peer moves to roomName. */
export const joinBreakoutRoom = async (roomId: string, roomName: string, peerId: string) =>
  unwrap(await api.POST('/api/meetings/{roomId}/join-breakout-room', { params: { path: { roomId } }, body: { roomName, peerId } }))
