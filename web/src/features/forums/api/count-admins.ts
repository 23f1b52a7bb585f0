import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

/** countAdmins asks which admins other than the user a staged state leaves; nothing is written. */
export async function countAdmins(id: string, state: Schemas['ForumStagedState'], signal?: AbortSignal) {
  return unwrap(await api.POST('/api/series/{id}/admin-count', { params: { path: { id } }, body: state, signal }))
}

/**
 * adminCountQuery: ['series', id, 'admin-count', state]. A dry run, so a
 * query: it follows the staged state, and the previous answer stays while
 * the next is read.
 */
export const adminCountQuery = (id: string, state: Schemas['ForumStagedState']) =>
  queryOptions({
    queryKey: ['series', id, 'admin-count', state],
    queryFn: ({ signal }) => countAdmins(id, state, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  })

export const useAdminCount = (id: string, state: Schemas['ForumStagedState'], enabled: boolean) =>
  useQuery({ ...adminCountQuery(id, state), enabled })
