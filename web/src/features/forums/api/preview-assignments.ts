import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

/** previewAssignments reads the notice a staged state sends; nothing is written. */
export async function previewAssignments(id: string, state: Schemas['ForumStagedState'], signal?: AbortSignal) {
  return unwrap(await api.POST('/api/series/{id}/assignments-invitations-preview', { params: { path: { id } }, body: state, signal }))
}

/** assignmentsPreviewQuery: ['series', id, 'assignments-preview', state]. */
export const assignmentsPreviewQuery = (id: string, state: Schemas['ForumStagedState']) =>
  queryOptions({
    queryKey: ['series', id, 'assignments-preview', state],
    queryFn: ({ signal }) => previewAssignments(id, state, signal),
    staleTime: 0,
  })

export const useAssignmentsPreview = (id: string, state: Schemas['ForumStagedState']) => useQuery(assignmentsPreviewQuery(id, state))
