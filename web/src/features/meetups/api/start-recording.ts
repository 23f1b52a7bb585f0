import { api, unwrap } from '@/api/client'

/** startRecording is POST /api/live-streams/record/{roomId}: the AI notes begin. */
export const startRecording = async (roomId: string) => unwrap(await api.POST('/api/live-streams/record/{roomId}', { params: { path: { roomId } } }))
