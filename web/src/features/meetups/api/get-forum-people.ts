import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type ForumMember = Schemas['ForumMember']

const all = { page: 1, pageSize: 9999 }

/** forumPeopleQuery: every member of the forum (the invitee picker, the invitee list's names, the open confirmation's count). */
export const forumPeopleQuery = (seriesId: string) =>
  queryOptions({
    queryKey: ['series', seriesId, 'members', all],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/series/{id}/members', { params: { path: { id: seriesId }, query: all }, signal })),
    staleTime: 60_000,
  })

export const useForumPeople = (seriesId: string, enabled = true) => useQuery({ ...forumPeopleQuery(seriesId), enabled })

export const personName = (m: Pick<ForumMember, 'firstName' | 'lastName'>) => `${m.firstName} ${m.lastName}`.trim()
