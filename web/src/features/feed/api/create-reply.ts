import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { addReply, updateThreadEverywhere } from '../lib/thread-cache'

export async function createReply(threadId: string, body: Schemas['ReplyCreateRequest']) {
  return unwrap(await api.POST('/api/threads/{threadId}/replies', { params: { path: { threadId } }, body }))
}

/**
 * useCreateReply comments on a post, or replies to a comment with
 * parentId. Submission errors go back to the caller (spec 001 §8), which
 * keeps the text and says so.
 */
export function useCreateReply(threadId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: { raw: string; parentId?: string | null }) => createReply(threadId, body),
    meta: { silent: true },
    onSuccess: (reply) =>
      updateThreadEverywhere(
        qc,
        threadId,
        (t) => addReply(t, reply, false),
        (t) => addReply(t, reply, true),
      ),
  })
}
