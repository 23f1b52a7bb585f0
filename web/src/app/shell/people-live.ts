import type { QueryClient } from '@tanstack/react-query'
import { useQueryClient } from '@tanstack/react-query'
import { HUB_EVENTS, keyId, payloadOf, type HubMessage } from '@/api/hub-events'
import { useHubEvents } from '@/lib/hub'

/**
 * applyUserUpdated reads again every open view of a person whose
 * user.updated event arrived (spec 000 §7): their profile dialog, and any
 * cached answer that names them by user id (team cards, member lists, feed
 * authors, comments, mention candidates), which a person's id tells apart
 * from any other. It says whether the event was one.
 */
export function applyUserUpdated(qc: QueryClient, m: HubMessage): boolean {
  if (m.event !== HUB_EVENTS.userUpdated) return false
  const p = payloadOf(m, HUB_EVENTS.userUpdated)
  const id = typeof p?.id === 'string' ? p.id : keyId(m.contextKey, 'user')
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
