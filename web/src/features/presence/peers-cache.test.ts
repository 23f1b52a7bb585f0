import { QueryClient, QueryObserver, type InfiniteData } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import type { HubMessage } from '@/lib/hub'
import { applyPresenceEvent, correctReads, PEERS_KEY, type Peer, type PeerList } from './peers-cache'

const peer = (id: string, lastName: string, status: Peer['status'] = 'offline', lastMessageOn: string | null = null): Peer => ({
  id,
  userId: id,
  name: `F ${lastName}`,
  firstName: 'F',
  lastName,
  avatar: null,
  company: '',
  jobTitle: '',
  interestTags: [],
  tags: [],
  status,
  presence: status === 'offline' ? null : '2026-11-24T08:00:00.000Z',
  lastMessageOn,
})

const event = (event: string, userId: string, status?: string): HubMessage => ({
  type: 'api:messages:broadcast',
  contextKey: `user:${userId}`,
  event,
  data: { payload: { userId, status } },
})

const NOW = '2026-11-24T09:00:00.000Z'
const names = (l: PeerList | undefined) => l?.results.map((p) => `${p.lastName}:${p.status}`)

function cached(results: Peer[]) {
  const qc = new QueryClient()
  const key = [...PEERS_KEY, { q: '', criterion: 'all' }]
  qc.setQueryData<PeerList>(key, { results, total: results.length })
  return { qc, read: () => qc.getQueryData<PeerList>(key) }
}

describe('applyPresenceEvent', () => {
  it('corrects a list being read as the event came: its answer may be from before the event', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const key = [...PEERS_KEY, { q: '', criterion: 'all' }]
    // The server's answer, held until after the event: from before B came back.
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let reads = 0
    const queryFn = async () => {
      reads++
      await held
      return { results: [peer('b', 'B', 'away')], total: 1 }
    }
    const uncorrect = correctReads(qc)
    // The chat list watching it.
    const stop = new QueryObserver(qc, { queryKey: key, queryFn }).subscribe(() => {})
    await vi.waitFor(() => expect(reads).toBe(1))
    applyPresenceEvent(qc, event('user.status', 'b', 'online'), undefined, () => NOW)
    release()
    await vi.waitFor(() => expect(names(qc.getQueryData<PeerList>(key))).toEqual(['B:online']))
    expect(reads).toBe(1)
    stop()
    uncorrect()
  })

  it('corrects a list read again as the event came, though the event changed the list it had meanwhile', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const key = [...PEERS_KEY, { q: '', criterion: 'all' }]
    // The first read answers at once; the second is held until after the event, with what the server had before it.
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let reads = 0
    const queryFn = async () => {
      if (++reads > 1) await held
      return { results: [peer('b', 'B', 'away')], total: 1 }
    }
    const uncorrect = correctReads(qc)
    const stop = new QueryObserver(qc, { queryKey: key, queryFn }).subscribe(() => {})
    await vi.waitFor(() => expect(names(qc.getQueryData<PeerList>(key))).toEqual(['B:away']))
    void qc.invalidateQueries({ queryKey: PEERS_KEY })
    await vi.waitFor(() => expect(reads).toBe(2))
    // The event lands on the list shown while the read is out.
    applyPresenceEvent(qc, event('user.status', 'b', 'online'), undefined, () => NOW)
    expect(names(qc.getQueryData<PeerList>(key))).toEqual(['B:online'])
    release()
    await vi.waitFor(() => expect(qc.getQueryState(key)?.fetchStatus).toBe('idle'))
    await Promise.resolve()
    expect(names(qc.getQueryData<PeerList>(key))).toEqual(['B:online'])
    stop()
    uncorrect()
  })

  it('moves a peer who connects among the connected ones, and back when they leave', () => {
    const { qc, read } = cached([peer('b', 'Berg', 'online'), peer('a', 'Adams'), peer('c', 'Cole')])
    expect(applyPresenceEvent(qc, event('user.connected', 'c', 'online'), undefined, () => NOW)).toBe(true)
    expect(names(read())).toEqual(['Berg:online', 'Cole:online', 'Adams:offline'])
    expect(read()!.results[1]!.presence).toBe(NOW)
    applyPresenceEvent(qc, event('user.disconnected', 'b', 'offline'))
    expect(names(read())).toEqual(['Cole:online', 'Adams:offline', 'Berg:offline'])
    expect(read()!.results[2]!.presence).toBeNull()
  })

  it('applies user.status in place: away and do-not-disturb stay among the connected', () => {
    const { qc, read } = cached([peer('a', 'Adams', 'online'), peer('b', 'Berg', 'online'), peer('c', 'Cole')])
    const before = read()!.results[1]!.presence
    applyPresenceEvent(qc, event('user.status', 'b', 'away'))
    applyPresenceEvent(qc, event('user.status', 'a', 'do-not-disturb'))
    expect(names(read())).toEqual(['Adams:do-not-disturb', 'Berg:away', 'Cole:offline'])
    expect(read()!.results[1]!.presence).toBe(before)
  })

  it('sorts by the latest message before the name, and keeps pinned peers where they are', () => {
    const { qc, read } = cached([
      peer('p', 'Pinned', 'offline', '2026-11-20T00:00:00.000Z'),
      peer('a', 'Adams', 'online'),
      peer('z', 'Zed', 'offline', '2026-11-23T00:00:00.000Z'),
      peer('b', 'Berg'),
    ])
    const pinned = (p: Peer) => p.id === 'p'
    applyPresenceEvent(qc, event('user.connected', 'z', 'online'), pinned)
    expect(names(read())).toEqual(['Pinned:offline', 'Zed:online', 'Adams:online', 'Berg:offline'])
    applyPresenceEvent(qc, event('user.connected', 'p', 'online'), pinned)
    expect(names(read())).toEqual(['Pinned:online', 'Zed:online', 'Adams:online', 'Berg:offline'])
  })

  it('updates every page of an infinite list, and ignores other events and unknown peers', () => {
    const qc = new QueryClient()
    const key = [...PEERS_KEY, { q: 'x' }]
    const data: InfiniteData<PeerList> = {
      pages: [
        { results: [peer('a', 'Adams', 'online')], total: 2 },
        { results: [peer('b', 'Berg')], total: 2 },
      ],
      pageParams: [1, 2],
    }
    qc.setQueryData(key, data)
    applyPresenceEvent(qc, event('user.connected', 'b', 'online'))
    const got = qc.getQueryData<InfiniteData<PeerList>>(key)!
    expect(got.pages.map(names)).toEqual([['Adams:online'], ['Berg:online']])
    expect(got.pages[0]).toBe(data.pages[0])
    expect(applyPresenceEvent(qc, event('user.updated', 'b'))).toBe(false)
    expect(applyPresenceEvent(qc, event('user.status', 'b', 'sleeping'))).toBe(false)
    applyPresenceEvent(qc, event('user.status', 'nobody', 'away'))
    expect(qc.getQueryData(key)).toBe(got)
  })
})
