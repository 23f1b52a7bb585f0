import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { removeChatMessage } from '../lib/chat-cache'

/** useDeleteMeetupChat is DELETE /api/meetings/{roomId}/chat/threads/{threadId}: the author's message leaves the chat. */
export function useDeleteMeetupChat(roomId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => {
      unwrap(await api.DELETE('/api/meetings/{roomId}/chat/threads/{threadId}', { params: { path: { roomId, threadId: id } } }))
      return id
    },
    onSuccess: (id) => removeChatMessage(qc, roomId, id),
  })
}
