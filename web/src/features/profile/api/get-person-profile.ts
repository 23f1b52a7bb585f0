import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type PersonProfile = Schemas['PersonProfile']

/** profileKey is a person's profile in the cache; user.updated reads it again. */
export const profileKey = (userId: string) => ['users', userId, 'profile'] as const

export async function getPersonProfile(userId: string, signal?: AbortSignal) {
  return unwrap(
    await api.GET('/api/users/{id}/profile', {
      params: { path: { id: userId } },
      signal,
    }),
  )
}

export const personProfileQuery = (userId: string) =>
  queryOptions({
    queryKey: profileKey(userId),
    queryFn: ({ signal }) => getPersonProfile(userId, signal),
  })

export const usePersonProfile = (userId: string | undefined) => useQuery({ ...personProfileQuery(userId ?? ''), enabled: !!userId })
