import type { QueryClient } from '@tanstack/react-query'
import { useQueryClient } from '@tanstack/react-query'
import { HUB_EVENTS, keyId, payloadOf, type HubMessage } from '@/api/hub-events'
import { useHubEvents } from '@/lib/hub'

// The community's, forum's or organization's id: the payload's, or the
// context key's for the events whose payload has none.
const idOf = (m: HubMessage) => {
  const { communityCreated, communityUpdated, communityDeleted, organizationCreated, organizationUpdated, organizationDeleted } = HUB_EVENTS
  const p = payloadOf(m, communityCreated, communityUpdated, communityDeleted, organizationCreated, organizationUpdated, organizationDeleted)
  return typeof p?.id === 'string' ? p.id : keyId(m.contextKey)
}

/**
 * applyAdminEvent reads again what a community or organization event
 * changes (spec 000 §7: api:community.created/updated/deleted,
 * api:organization.created/updated/deleted, community.members.removed,
 * and series.members.added/removed and series.deleted, a forum that
 * became the member's or stopped being it):
 * the lists, the permissions behind the Manage menu, and the community or
 * organization itself. It says whether the event was one of them.
 */
export function applyAdminEvent(qc: QueryClient, m: HubMessage): boolean {
  const id = idOf(m)
  switch (m.event) {
    case HUB_EVENTS.communityCreated:
    case HUB_EVENTS.communityUpdated:
    case HUB_EVENTS.communityDeleted:
    case HUB_EVENTS.communityMembersRemoved:
      void qc.invalidateQueries({ queryKey: ['communities'] })
      void qc.invalidateQueries({ queryKey: ['permissions'] })
      // An organization counts its communities.
      void qc.invalidateQueries({ queryKey: ['organizations'] })
      if (id) void qc.invalidateQueries({ queryKey: ['community', id] })
      return true
    case HUB_EVENTS.seriesMembersAdded:
    case HUB_EVENTS.seriesMembersRemoved:
    case HUB_EVENTS.seriesDeleted:
      // A forum is the member's now (assigned, or an open forum of their
      // community), or no longer (removed from it, or deleted): Home, the
      // community's page and the side nav list it or drop it, and a page
      // of it reads it again, which sends a member who lost it home at
      // once (spec 001 §2), its composer with it.
      void qc.invalidateQueries({ queryKey: ['communities'] })
      void qc.invalidateQueries({ queryKey: ['community'] })
      if (id) void qc.invalidateQueries({ queryKey: ['series', id] })
      return true
    case HUB_EVENTS.organizationCreated:
    case HUB_EVENTS.organizationUpdated:
    case HUB_EVENTS.organizationDeleted:
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

/** useAdminLive applies those events for as long as the signed-in frame is shown; what admin it read before a connection went live is read again (useHubEvents). */
export function useAdminLive() {
  const qc = useQueryClient()
  useHubEvents(
    '*',
    (m) => void applyAdminEvent(qc, m),
    (missed) => {
      for (const key of ['communities', 'community', 'organizations', 'permissions']) void qc.invalidateQueries({ queryKey: [key], predicate: missed })
    },
  )
}
