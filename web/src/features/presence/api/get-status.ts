import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** myStatusKey holds the signed-in member's own choice (not the status it makes). */
export const myStatusKey = ['presence', 'me', 'status'] as const

/** getMyStatus is GET /api/users/me/status: do-not-disturb, or auto. */
export async function getMyStatus(signal?: AbortSignal) {
  return unwrap(await api.GET('/api/users/me/status', { signal }))
}

export const myStatusQuery = () => queryOptions({ queryKey: myStatusKey, queryFn: ({ signal }) => getMyStatus(signal) })

/** useMyStatus reads what the member chose, kept by the server across sessions and browsers. */
export const useMyStatus = () => useQuery(myStatusQuery())
