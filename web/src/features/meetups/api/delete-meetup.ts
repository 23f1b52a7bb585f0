import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { dropMeeting } from '../lib/meeting-cache'
import type { Meeting } from './types'

/** deleteMeetupPost is DELETE /api/threads/{threadId}: a Meet Up goes with its post. */
export const deleteMeetupPost = async (threadId: string) => unwrap(await api.DELETE('/api/threads/{threadId}', { params: { path: { threadId } } }))

/** useDeleteMeetup deletes the Meet Up's post (and so the Meet Up). */
export function useDeleteMeetup(m: Pick<Meeting, 'roomId' | 'postId'>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => deleteMeetupPost(m.postId),
    meta: { silent: true },
    onSuccess: () => {
      dropMeeting(qc, m.roomId)
      void qc.invalidateQueries({ queryKey: ['threads', m.postId], exact: true })
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'channels' && q.queryKey[2] === 'threads' })
    },
  })
}
