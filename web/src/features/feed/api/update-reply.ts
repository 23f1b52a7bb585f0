import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18n from '@/i18n'
import { api, unwrap } from '@/api/client'
import { toast } from '@/components/ui/toast'
import { mapReply, updateThreadEverywhere } from '../lib/thread-cache'

export async function updateReply(threadId: string, replyId: string, raw: string) {
  return unwrap(await api.PATCH('/api/threads/{threadId}/replies/{replyId}', { params: { path: { threadId, replyId } }, body: { raw } }))
}

/** useUpdateReply edits a comment or reply; a failure shows feedPostUpdating. */
export function useUpdateReply(threadId: string, replyId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (raw: string) => updateReply(threadId, replyId, raw),
    meta: { silent: true },
    onSuccess: (r) =>
      updateThreadEverywhere(qc, threadId, (t) => mapReply(t, replyId, (old) => ({ ...old, raw: r.raw, mentions: r.mentions, hashtags: r.hashtags, updatedOn: r.updatedOn }))),
    onError: () => toast({ title: i18n.t('global:error.feedPostUpdating'), variant: 'destructive' }),
  })
}
