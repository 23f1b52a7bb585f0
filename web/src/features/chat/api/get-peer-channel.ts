import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { chatKeys } from '../lib/chat-cache'
import type { PrivateChannelList } from './types'

/** The caller's channel with a peer, however many channels they have: one result, or none before the first message. */
export const peerChannelQuery = (peerId: string) =>
  queryOptions({
    queryKey: chatKeys.peerChannel(peerId),
    queryFn: async ({ signal }): Promise<PrivateChannelList> =>
      unwrap(await api.GET('/api/channels/private', { params: { query: { peerId, pageSize: 1 } }, signal })),
  })
