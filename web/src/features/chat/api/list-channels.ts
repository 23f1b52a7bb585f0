import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { chatKeys } from '../lib/chat-cache'
import type { PrivateChannelList } from './types'

/** The channels' page size (spec 002 §9): at most 100, for the unread dots. */
export const CHANNELS_PAGE = 100

/** The caller's private channels, latest activity first. */
export const channelsQuery = () =>
  queryOptions({
    queryKey: chatKeys.channels,
    queryFn: async ({ signal }): Promise<PrivateChannelList> =>
      unwrap(await api.GET('/api/channels/private', { params: { query: { page: 1, pageSize: CHANNELS_PAGE } }, signal })),
  })
