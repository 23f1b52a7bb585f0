import type { QueryClient } from '@tanstack/react-query'
import { useQueryClient } from '@tanstack/react-query'
import { useHubEvents, type HubMessage } from '@/lib/hub'

/**
 * applyUserUpdated reads again every open view of a person whose
 * user.updated event arrived (spec 000 §7): their profile dialog, and any
 * cached answer that names them by user id (team cards, member lists, feed
 * authors, comments, mention candidates), which a person's id tells apart
 * from any other. It says whether the event was one.
 */
export function applyUserUpdated(qc: QueryClient, m: HubMessage): boolean {
  if (m.event !== 'user.updated') return false
  const p = m.data?.payload as { id?: unknown } | null | undefined
  const id = p && typeof p.id === 'string' ? p.id : m.contextKey.startsWith('user:') ? m.contextKey.slice(5) : undefined
  if (!id) return true
  void qc.invalidateQueries({
    predicate: (q) => q.queryKey.includes(id) || (q.state.data !== undefined && JSON.stringify(q.state.data).includes(`"${id}"`)),
  })
  return true
}

/** usePeopleLive applies user.updated for as long as the signed-in frame is shown. */
export function usePeopleLive() {
  const qc = useQueryClient()
  useHubEvents('*', (m) => void applyUserUpdated(qc, m))
}
