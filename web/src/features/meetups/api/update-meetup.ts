import { api, unwrap } from '@/api/client'
import type { MeetingForm } from './types'

/** updateMeeting is PUT /api/meetings/{roomId}: the form again, as edited (run it with useMeetingAction). */
export const updateMeeting = async (roomId: string, form: MeetingForm) =>
  unwrap(await api.PUT('/api/meetings/{roomId}', { params: { path: { roomId } }, body: form }))
