import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { meetingKeys } from './keys'

/** getBreakouts is GET /api/meetings/{roomId}/breakouts. */
export const getBreakouts = async (roomId: string, signal?: AbortSignal) =>
  unwrap(await api.GET('/api/meetings/{roomId}/breakouts', { params: { path: { roomId } }, signal }))

/** breakoutsQuery: ['meetings', roomId, 'breakouts']. */
export const breakoutsQuery = (roomId: string) => queryOptions({ queryKey: meetingKeys.breakouts(roomId), queryFn: ({ signal }) => getBreakouts(roomId, signal) })

export const useBreakouts = (roomId: string, enabled = true) => useQuery({ ...breakoutsQuery(roomId), enabled })
