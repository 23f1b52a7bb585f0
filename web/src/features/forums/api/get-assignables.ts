import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type Assignable = Schemas['Assignable']
export type AssignablesParams = { page: number; pageSize: number; keyword?: string; isAssigned: boolean }

export async function getAssignables(id: string, p: AssignablesParams, signal?: AbortSignal) {
  const query = { page: p.page, pageSize: p.pageSize, isAssigned: p.isAssigned ? 'true' : 'false', ...(p.keyword ? { keyword: p.keyword } : {}) } as const
  return unwrap(await api.GET('/api/series/{id}/assignables', { params: { path: { id }, query }, signal }))
}

/**
 * assignablesQuery: ['series', id, 'assignables', params], the community's
 * members with whether they are in the forum. A new page or keyword keeps
 * the previous rows on screen until the answer comes.
 */
export const assignablesQuery = (id: string, p: AssignablesParams) =>
  queryOptions({
    queryKey: ['series', id, 'assignables', p],
    queryFn: ({ signal }) => getAssignables(id, p, signal),
    placeholderData: keepPreviousData,
  })

export const useAssignables = (id: string, p: AssignablesParams) => useQuery(assignablesQuery(id, p))
