import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { insightsKeys } from './keys'

/** getAdminChannel is GET /api/insights/series/{seriesId}/admin-channel: the admins' channel id, or null. */
export async function getAdminChannel(seriesId: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/insights/series/{seriesId}/admin-channel', { params: { path: { seriesId } }, signal }))
}

/** adminChannelQuery: ['insights', seriesId, 'admin-channel']; a forum keeps its channel, so it is read once. */
export const adminChannelQuery = (seriesId: string) =>
  queryOptions({
    queryKey: insightsKeys.adminChannel(seriesId),
    queryFn: ({ signal }) => getAdminChannel(seriesId, signal),
    staleTime: Infinity,
  })

export const useAdminChannel = (seriesId: string) => useQuery(adminChannelQuery(seriesId))
