import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { replaceMessage } from '../lib/chat-cache'
import type { ChatMessageUpdateRequest } from './types'

/** useEditMessage changes a message's text; the answer replaces it in its conversation. */
export function useEditMessage() {
  const qc = useQueryClient()
  return useMutation({
    meta: { silent: true },
    mutationFn: async ({ id, body }: { id: string; body: ChatMessageUpdateRequest }) =>
      unwrap(await api.PATCH('/api/threads/private/{threadId}', { params: { path: { threadId: id } }, body })),
    onSuccess: (m) => replaceMessage(qc, m),
  })
}
