import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

// The Details lists carry the asker's user id only; their names come from
// the forum's members (the API has no read of a profile by user id). One
// read of every member, made when a list that names people opens.
const params = { page: 1, pageSize: 9999 }

/** getForumPeople is GET /api/series/{id}/members?page=1&pageSize=9999. */
export async function getForumPeople(seriesId: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/series/{id}/members', { params: { path: { id: seriesId }, query: params }, signal }))
}

/** forumPeopleQuery: ['series', seriesId, 'members', {page: 1, pageSize: 9999}] → a map of user id to name. */
export const forumPeopleQuery = (seriesId: string) =>
  queryOptions({
    queryKey: ['series', seriesId, 'members', params],
    queryFn: ({ signal }) => getForumPeople(seriesId, signal),
    select: (list) => new Map(list.results.flatMap((m) => (m.userId ? [[m.userId, `${m.firstName} ${m.lastName}`.trim()] as const] : []))),
    staleTime: 300_000,
  })

export const useForumPeople = (seriesId: string, enabled = true) => useQuery({ ...forumPeopleQuery(seriesId), enabled })
