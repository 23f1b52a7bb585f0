import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { meetingKeys } from './keys'

/** listMeetings is GET /api/meetings: the caller's Meet Ups, of one forum when seriesId is given. */
export const listMeetings = async (seriesId?: string, signal?: AbortSignal) =>
  unwrap(await api.GET('/api/meetings', { params: { query: { ...(seriesId ? { seriesId } : {}), page: 1, pageSize: 50 } }, signal }))

/** meetingsQuery: ['meetings', 'list', {seriesId}]. */
export const meetingsQuery = (seriesId?: string) => queryOptions({ queryKey: meetingKeys.list(seriesId), queryFn: ({ signal }) => listMeetings(seriesId, signal) })

export const useMeetings = (seriesId?: string, enabled = true) => useQuery({ ...meetingsQuery(seriesId), enabled })
