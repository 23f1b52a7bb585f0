import type { QueryClient } from '@tanstack/react-query'
import { useQueryClient } from '@tanstack/react-query'
import { useHubEvents, type HubMessage } from '@/lib/hub'

const idOf = (m: HubMessage) => {
  const p = m.data?.payload as { id?: unknown } | null | undefined
  if (p && typeof p.id === 'string') return p.id
  const i = m.contextKey.indexOf(':')
  return i >= 0 ? m.contextKey.slice(i + 1) : undefined
}

/**
 * applyAdminEvent reads again what a community or organization event
 * changes (spec 000 §7: api:community.created/updated/deleted,
 * api:organization.created/updated/deleted, community.members.removed,
 * and series.members.added, a forum that became the member's):
 * the lists, the permissions behind the Manage menu, and the community or
 * organization itself. It says whether the event was one of them.
 */
export function applyAdminEvent(qc: QueryClient, m: HubMessage): boolean {
  const id = idOf(m)
  switch (m.event) {
    case 'community.created':
    case 'community.updated':
    case 'community.deleted':
    case 'community.members.removed':
      void qc.invalidateQueries({ queryKey: ['communities'] })
      void qc.invalidateQueries({ queryKey: ['permissions'] })
      // An organization counts its communities.
      void qc.invalidateQueries({ queryKey: ['organizations'] })
      if (id) void qc.invalidateQueries({ queryKey: ['community', id] })
      return true
    case 'series.members.added':
      // A forum is the member's now (assigned, or an open forum of their
      // community): Home and the community's page list it.
      void qc.invalidateQueries({ queryKey: ['communities'] })
      void qc.invalidateQueries({ queryKey: ['community'] })
      if (id) void qc.invalidateQueries({ queryKey: ['series', id] })
      return true
    case 'organization.created':
    case 'organization.updated':
    case 'organization.deleted':
      void qc.invalidateQueries({ queryKey: ['organizations'] })
      void qc.invalidateQueries({ queryKey: ['permissions'] })
      // A community shows its organization's name.
      void qc.invalidateQueries({ queryKey: ['communities'] })
      void qc.invalidateQueries({ queryKey: ['community'] })
      return true
    default:
      return false
  }
}

/** useAdminLive applies those events for as long as the signed-in frame is shown; after a lost connection everything admin is read again. */
export function useAdminLive() {
  const qc = useQueryClient()
  useHubEvents(
    '*',
    (m) => void applyAdminEvent(qc, m),
    () => {
      for (const key of ['communities', 'community', 'organizations', 'permissions']) void qc.invalidateQueries({ queryKey: [key] })
    },
  )
}
