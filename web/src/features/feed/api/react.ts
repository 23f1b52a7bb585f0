import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import {
  cancelThreadQueries,
  invalidateThread,
  mapReply,
  restore,
  snapshotThread,
  updateThreadEverywhere,
  withMyReaction,
  type ReactionKind,
} from '../lib/thread-cache'

export type ReactionTarget = { threadId: string; replyId?: string }

export async function react({ threadId, replyId }: ReactionTarget, reaction: ReactionKind | null) {
  if (replyId) {
    return unwrap(await api.PUT('/api/threads/{threadId}/replies/{replyId}/reaction', { params: { path: { threadId, replyId } }, body: { reaction } }))
  }
  return unwrap(await api.PUT('/api/threads/{threadId}/reaction', { params: { path: { threadId } }, body: { reaction } }))
}

/**
 * useReact sets or clears the caller's reaction to a post or a comment
 * (spec 001 §4): applied to the cache at once, rolled back silently when
 * the call fails, then refetched either way.
 */
export function useReact(target: ReactionTarget) {
  const qc = useQueryClient()
  const { threadId, replyId } = target
  return useMutation({
    mutationFn: (reaction: ReactionKind | null) => react(target, reaction),
    meta: { silent: true },
    onMutate: async (reaction) => {
      await cancelThreadQueries(qc, threadId)
      const snapshot = snapshotThread(qc, threadId)
      updateThreadEverywhere(qc, threadId, (t) => (replyId ? mapReply(t, replyId, (r) => withMyReaction(r, reaction)) : withMyReaction(t, reaction)))
      return { snapshot }
    },
    onError: (_err, _reaction, ctx) => {
      if (ctx) restore(qc, ctx.snapshot)
    },
    onSettled: () => {
      void invalidateThread(qc, threadId)
    },
  })
}
