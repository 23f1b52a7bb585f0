import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { addMessage, chatKeys } from '../lib/chat-cache'
import type { ChatMessageCreateRequest } from './types'

/** useSendMessage sends a message to the peer; the answer joins its conversation (a new channel: the channels are read again). */
export function useSendMessage() {
  const qc = useQueryClient()
  return useMutation({
    // The editor shows why a message was not sent.
    meta: { silent: true },
    mutationFn: async (body: ChatMessageCreateRequest) => unwrap(await api.POST('/api/threads/private', { body })),
    onSuccess: (m) => {
      addMessage(qc, m)
      void qc.invalidateQueries({ queryKey: chatKeys.channels })
    },
  })
}
