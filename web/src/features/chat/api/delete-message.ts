import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { chatKeys, removeMessage } from '../lib/chat-cache'
import type { ChatMessage } from './types'

/** useDeleteMessage deletes a message; it leaves its conversation and the channels are read again. */
export function useDeleteMessage() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (m: ChatMessage) => {
      unwrap(await api.DELETE('/api/threads/private/{threadId}', { params: { path: { threadId: m.id } } }))
      return m
    },
    onSuccess: (m) => {
      removeMessage(qc, m.channelId, m.id)
      void qc.invalidateQueries({ queryKey: chatKeys.channels })
    },
  })
}
