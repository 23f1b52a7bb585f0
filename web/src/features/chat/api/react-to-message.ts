import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { replaceMessage } from '../lib/chat-cache'
import type { ReactionKind } from './types'

/** useReactToMessage sets or clears the caller's reaction; the answer replaces the message. */
export function useReactToMessage() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, reaction }: { id: string; reaction: ReactionKind | null }) =>
      unwrap(await api.PUT('/api/threads/private/{threadId}/reaction', { params: { path: { threadId: id } }, body: { reaction } })),
    onSuccess: (m) => replaceMessage(qc, m),
  })
}
