import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18n from '@/i18n'
import { api, unwrap } from '@/api/client'
import { toast } from '@/components/ui/toast'
import { invalidateThread, removeReply, updateThreadEverywhere } from '../lib/thread-cache'

export async function deleteReply(threadId: string, replyId: string) {
  return unwrap(await api.DELETE('/api/threads/{threadId}/replies/{replyId}', { params: { path: { threadId, replyId } } }))
}

/** useDeleteReply deletes a comment (with its replies) or a reply; a failure shows feedPostDeleting. */
export function useDeleteReply(threadId: string, replyId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => deleteReply(threadId, replyId),
    meta: { silent: true },
    onSuccess: () => {
      updateThreadEverywhere(qc, threadId, (t) => removeReply(t, replyId))
      // A feed page holds only the featured comment: when it goes, the
      // next one becomes featured, which only the server knows.
      void invalidateThread(qc, threadId)
    },
    onError: () => toast({ title: i18n.t('global:error.feedPostDeleting'), variant: 'destructive' }),
  })
}
