import { api, unwrap } from '@/api/client'

/** unregister is DELETE /api/meetings/{roomId}/registration: the seat, or the place on the waitlist, is given up. */
export const unregister = async (roomId: string) => unwrap(await api.DELETE('/api/meetings/{roomId}/registration', { params: { path: { roomId } } }))
