import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { setChannelSeen } from '../lib/chat-cache'

/** useMarkSeen marks a conversation seen: its unread dot goes at once. */
export function useMarkSeen() {
  const qc = useQueryClient()
  return useMutation({
    // Marking seen happens in the background; a failure leaves the dot, nothing to tell.
    meta: { silent: true },
    mutationFn: async (channelId: string) => {
      unwrap(await api.POST('/api/channels/private/{channelId}/seen', { params: { path: { channelId } } }))
      return channelId
    },
    onSuccess: (channelId) => setChannelSeen(qc, channelId, new Date().toISOString()),
  })
}
