import { api, unwrap } from '@/api/client'
import type { Peer } from './types'

/** The fields a peer search may look in (spec 002 §2), 'all' first. */
export const CRITERIA = ['all', 'name', 'org', 'job', 'expertise', 'tags'] as const
export type Criterion = (typeof CRITERIA)[number]
/** Peers are listed 25 at a time (spec 002 §9). */
export const PEERS_PAGE = 25

/** peersQuery is GET /api/peers for a search, page by page; key begins with the presence cache's key so presence events reach it. */
export const peersQuery = (peersKey: readonly unknown[], q: string, criterion: Criterion) => ({
  queryKey: [...peersKey, { q, criterion }],
  initialPageParam: 1,
  queryFn: async ({ pageParam, signal }: { pageParam: number; signal: AbortSignal }) =>
    unwrap(await api.GET('/api/peers', { params: { query: { ...(q ? { q, criterion } : {}), page: pageParam, pageSize: PEERS_PAGE } }, signal })),
  getNextPageParam: (last: { results: Peer[]; total: number }, pages: unknown[]) => (pages.length * PEERS_PAGE < last.total ? pages.length + 1 : undefined),
})
