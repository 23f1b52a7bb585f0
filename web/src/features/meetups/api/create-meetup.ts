import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { meetingKeys } from './keys'
import type { MeetingForm } from './types'

/** createMeeting is POST /api/series/{seriesId}/meetings: it answers the Meet Up's post. */
export const createMeeting = async (seriesId: string, form: MeetingForm) =>
  unwrap(await api.POST('/api/series/{seriesId}/meetings', { params: { path: { seriesId } }, body: form }))

/** useCreateMeeting schedules a Meet Up; the lists are read again (the feed's post arrives by its own event). */
export function useCreateMeeting(seriesId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (form: MeetingForm) => createMeeting(seriesId, form),
    // A failure is shown in the form (the spec only logs it; the form keeps what was typed).
    meta: { silent: true },
    onSuccess: (t) => {
      if (t.meeting) qc.setQueryData(meetingKeys.one(t.meeting.roomId), t.meeting)
      void qc.invalidateQueries({ queryKey: meetingKeys.lists })
      void qc.invalidateQueries({ queryKey: ['channels', t.channelId, 'threads'] })
    },
  })
}
