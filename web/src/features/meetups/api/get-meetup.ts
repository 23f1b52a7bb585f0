import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { newer } from '../lib/meeting-cache'
import { meetingKeys } from './keys'
import type { Meeting } from './types'

/** getMeeting is GET /api/meetings/{roomId}. */
export const getMeeting = async (roomId: string, signal?: AbortSignal) =>
  unwrap(await api.GET('/api/meetings/{roomId}', { params: { path: { roomId } }, signal }))

/** meetingQuery: ['meetings', roomId]. */
export const meetingQuery = (roomId: string) => queryOptions({ queryKey: meetingKeys.one(roomId), queryFn: ({ signal }) => getMeeting(roomId, signal) })

/**
 * useMeetingOf is the current copy of a Meet Up a post or list brings: the
 * cached one when it is newer (a registration just made), else the one given.
 */
export function useMeetingOf(m: Meeting): Meeting {
  const q = useQuery({ ...meetingQuery(m.roomId), initialData: m, initialDataUpdatedAt: Date.now(), staleTime: Infinity })
  return q.data && newer(m, q.data) ? q.data : m
}
