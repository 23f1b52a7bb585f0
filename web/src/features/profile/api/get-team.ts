import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type TeamMember = Schemas['ForumMember']

/** The team panel's sizes (spec 002 §9): the docked preview, the panel's list, the expanded member list. */
export const TEAM_PREVIEW = 3
export const TEAM_LIST = 100
export const TEAM_ALL = 9999

export async function getTeam(seriesId: string, pageSize: number, signal?: AbortSignal) {
  return unwrap(
    await api.GET('/api/series/{id}/admin-and-experts', {
      params: { path: { id: seriesId }, query: { page: 1, pageSize } },
      signal,
    }),
  )
}

/** teamQuery: ['series', id, 'admin-and-experts', pageSize], experts first, then admins. */
export const teamQuery = (seriesId: string, pageSize: number) =>
  queryOptions({
    queryKey: ['series', seriesId, 'admin-and-experts', pageSize],
    queryFn: ({ signal }) => getTeam(seriesId, pageSize, signal),
  })

export const useTeam = (seriesId: string, pageSize: number, enabled = true) => useQuery({ ...teamQuery(seriesId, pageSize), enabled })

/**
 * highlightedAdmins are the first three admins of the list (spec 002 §2:
 * "the first three admins are highlighted"), by profile id.
 */
export function highlightedAdmins(members: TeamMember[]): Set<string> {
  return new Set(
    members
      .filter((m) => m.role.startsWith('admin'))
      .slice(0, 3)
      .map((m) => m.id),
  )
}
