import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { addChatMessage } from '../lib/chat-cache'

/** useSendMeetupChat is POST /api/meetings/{roomId}/chat/threads; the answer joins the chat. */
export function useSendMeetupChat(roomId: string) {
  const qc = useQueryClient()
  return useMutation({
    // The chat window says why a message was not sent.
    meta: { silent: true },
    mutationFn: async (raw: string) => unwrap(await api.POST('/api/meetings/{roomId}/chat/threads', { params: { path: { roomId } }, body: { raw } })),
    onSuccess: (m) => addChatMessage(qc, roomId, m),
  })
}
