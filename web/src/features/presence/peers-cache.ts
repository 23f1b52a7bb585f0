import type { InfiniteData, QueryClient } from '@tanstack/react-query'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { Schemas } from '@/api/client'
import { HUB_EVENTS, payloadOf, type HubMessage } from '@/api/hub-events'
import { useHubEvents } from '@/lib/hub'

export type Peer = Schemas['Peer']
export type PeerList = Schemas['PeerList']
export type PeerStatus = Peer['status']

/**
 * PEERS_KEY begins the query key of every GET /api/peers list (e.g.
 * [...PEERS_KEY, { q, criterion }]), plain or infinite: the presence
 * events update them all in place.
 */
export const PEERS_KEY = ['peers'] as const

const STATUSES: readonly PeerStatus[] = ['online', 'away', 'do-not-disturb', 'offline']

/** presenceOf reads a presence event's {userId, status}; undefined for any other event. */
export function presenceOf(m: HubMessage): { userId: string; status: PeerStatus } | undefined {
  const p = payloadOf(m, HUB_EVENTS.userConnected, HUB_EVENTS.userDisconnected, HUB_EVENTS.userStatus)
  if (!p || typeof p.userId !== 'string') return undefined
  const status = m.event === HUB_EVENTS.userDisconnected ? 'offline' : p.status
  if (!STATUSES.includes(status)) return undefined
  return { userId: p.userId, status }
}

const lower = (s: string) => s.toLowerCase()

/**
 * comparePeers is GET /api/peers's order after the pinned peers: the
 * connected first, then the latest message with the caller (newest first,
 * none last), then last name, first name and id.
 */
export function comparePeers(a: Peer, b: Peer): number {
  const connected = Number(b.status !== 'offline') - Number(a.status !== 'offline')
  if (connected) return connected
  const am = a.lastMessageOn ? Date.parse(a.lastMessageOn) : -Infinity
  const bm = b.lastMessageOn ? Date.parse(b.lastMessageOn) : -Infinity
  if (am !== bm) return bm > am ? 1 : -1
  for (const [x, y] of [
    [lower(a.lastName), lower(b.lastName)],
    [lower(a.firstName), lower(b.firstName)],
    [a.id, b.id],
  ] as const) {
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

/**
 * withPresence is results with the peer's new status, moved to where the
 * server's order puts it among the unpinned peers; pinned peers (unseen
 * chats) stay where they are. The same array when the peer is not there.
 */
export function withPresence(
  results: Peer[],
  userId: string,
  status: PeerStatus,
  now: string,
  pinned: (p: Peer) => boolean = () => false,
): Peer[] {
  const i = results.findIndex((p) => p.userId === userId)
  if (i < 0) return results
  const old = results[i]!
  if (old.status === status) return results
  const peer: Peer = {
    ...old,
    status,
    presence: status === 'offline' ? null : old.status === 'offline' ? now : old.presence,
  }
  const rest = results.filter((_, j) => j !== i)
  if (pinned(old)) return [...rest.slice(0, i), peer, ...rest.slice(i)]
  let at = rest.findIndex((p) => !pinned(p) && comparePeers(peer, p) < 0)
  if (at < 0) at = rest.length
  return [...rest.slice(0, at), peer, ...rest.slice(at)]
}

type Cached = PeerList | InfiniteData<PeerList> | undefined

/**
 * applyPresenceEvent applies user.connected, user.disconnected and
 * user.status to every cached peers list (each page of an infinite one);
 * it says whether the event was one of them.
 */
export function applyPresenceEvent(qc: QueryClient, m: HubMessage, pinned?: (p: Peer) => boolean, now = () => new Date().toISOString()): boolean {
  const change = presenceOf(m)
  if (!change) return false
  const at = now()
  const update = (l: PeerList): PeerList => {
    const results = withPresence(l.results, change.userId, change.status, at, pinned)
    return results === l.results ? l : { ...l, results }
  }
  qc.setQueriesData<Cached>({ queryKey: PEERS_KEY }, (data) => {
    if (!data) return data
    if ('pages' in data) {
      const pages = data.pages.map(update)
      return pages.every((p, i) => p === data.pages[i]) ? data : { ...data, pages }
    }
    return update(data)
  })
  const cutoff = Date.now() - RECENT_MS
  while (recent.length > 0 && recent[0]!.at < cutoff) recent.shift()
  recent.push({ at: Date.now(), ...change, on: at })
  return true
}

/**
 * RECENT_MS is how long a presence event is kept to correct a list read
 * while it came: longer than a read of GET /api/peers takes.
 */
const RECENT_MS = 60_000
const recent: { at: number; userId: string; status: PeerStatus; on: string }[] = []

/**
 * correctReads makes a peers list read while presence events came show
 * them: its answer may hold what the server had before an event, and
 * nothing would correct it until that peer's next change. Each read's
 * start is noted; when it lands, the events since are applied to it.
 */
export function correctReads(qc: QueryClient, pinned?: (p: Peer) => boolean): () => void {
  const started = new Map<string, number>()
  return qc.getQueryCache().subscribe((e) => {
    if (e.type !== 'updated' || e.query.queryKey[0] !== PEERS_KEY[0]) return
    if (e.action.type === 'fetch') started.set(e.query.queryHash, Date.now())
    if (e.action.type === 'error') started.delete(e.query.queryHash)
    // setQueryData is a success too (manual), the presence events' own
    // among them: only a read's answer ends the read it corrects.
    if (e.action.type !== 'success' || e.action.manual) return
    const since = started.get(e.query.queryHash)
    started.delete(e.query.queryHash)
    const missed = since === undefined ? [] : recent.filter((r) => r.at >= since)
    if (missed.length === 0) return
    const update = (l: PeerList): PeerList => {
      let results = l.results
      for (const r of missed) results = withPresence(results, r.userId, r.status, r.on, pinned)
      return results === l.results ? l : { ...l, results }
    }
    const data = e.query.state.data as Cached
    if (!data) return
    const next = 'pages' in data ? { ...data, pages: data.pages.map(update) } : update(data)
    queueMicrotask(() => qc.setQueryData(e.query.queryKey, next))
  })
}

/**
 * usePresenceLive keeps the cached peers lists' presence live, pinned
 * peers (unseen chats) staying where they are; lists read before a
 * connection went live are read again (useHubEvents).
 */
export function usePresenceLive(pinned?: (p: Peer) => boolean) {
  const qc = useQueryClient()
  const pin = useRef(pinned)
  pin.current = pinned
  useEffect(() => correctReads(qc, (p) => pin.current?.(p) ?? false), [qc])
  useHubEvents(
    '*',
    (m) => void applyPresenceEvent(qc, m, pinned),
    (missed) => void qc.invalidateQueries({ queryKey: PEERS_KEY, predicate: missed }),
  )
}
