import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { replaceChatMessage } from '../lib/chat-cache'

/** useEditMeetupChat is PATCH /api/meetings/{roomId}/chat/threads/{threadId}: the author's new text; the answer replaces the message. */
export function useEditMeetupChat(roomId: string) {
  const qc = useQueryClient()
  return useMutation({
    meta: { silent: true },
    mutationFn: async ({ id, raw }: { id: string; raw: string }) =>
      unwrap(await api.PATCH('/api/meetings/{roomId}/chat/threads/{threadId}', { params: { path: { roomId, threadId: id } }, body: { raw } })),
    onSuccess: (m) => replaceChatMessage(qc, roomId, m),
  })
}
