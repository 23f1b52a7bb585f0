import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { meetingKeys } from './keys'

/** getPermissions is GET /api/meetings/{roomId}/permissions: what the caller may do in the Meet Up. */
export const getPermissions = async (roomId: string, signal?: AbortSignal) =>
  unwrap(await api.GET('/api/meetings/{roomId}/permissions', { params: { path: { roomId } }, signal }))

/** permissionsQuery: ['meetings', roomId, 'permissions']. */
export const permissionsQuery = (roomId: string) =>
  queryOptions({ queryKey: meetingKeys.permissions(roomId), queryFn: ({ signal }) => getPermissions(roomId, signal) })

export const usePermissions = (roomId: string, enabled = true) => useQuery({ ...permissionsQuery(roomId), enabled })
