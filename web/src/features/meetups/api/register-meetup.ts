import { api, unwrap } from '@/api/client'

/** register is PUT /api/meetings/{roomId}/registration: a seat, or the waitlist when it is full. */
export const register = async (roomId: string) => unwrap(await api.PUT('/api/meetings/{roomId}/registration', { params: { path: { roomId } } }))
