import { api, unwrap } from '@/api/client'

/** joinToken is POST /api/meetings/join-token: the media server's token for entering the room. */
export const joinToken = async (roomId: string, userId: string) => unwrap(await api.POST('/api/meetings/join-token', { body: { roomId, userId } }))
