import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

type Personalization = Schemas['Personalization']

/** The person's own personalization: ['users', id, 'personalization']. */
export const personalizationQuery = (userId: string) =>
  queryOptions({
    queryKey: ['users', userId, 'personalization'],
    queryFn: async ({ signal }): Promise<Personalization> =>
      unwrap(await api.GET('/api/users/{userId}/personalization', { params: { path: { userId } }, signal })),
  })

export const usePersonalization = (userId: string) => useQuery(personalizationQuery(userId))

/** useSetPersonalization merges keys into it (PATCH); the answer, the whole object, replaces the cached one. */
export function useSetPersonalization(userId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (body: Personalization) =>
      unwrap(await api.PATCH('/api/users/{userId}/personalization', { params: { path: { userId } }, body })),
    onSuccess: (data) => qc.setQueryData(personalizationQuery(userId).queryKey, data),
  })
}
