import { describe, expect, it } from 'vitest'
import { makeQueryClient } from '@/lib/query-client'
import { applyAdminEvent } from './admin-live'

const msg = (event: string, contextKey: string, payload: unknown = {}) => ({ type: 'api:messages:broadcast' as const, contextKey, event, data: { payload } })

function seeded() {
  const qc = makeQueryClient()
  for (const key of [['communities', 'mine', {}], ['community', 'c1'], ['community', 'c2'], ['organizations', 'list', {}], ['organizations', 'o1'], ['permissions', 'organization'], ['series', 's1']]) {
    qc.setQueryData(key, { seeded: true })
  }
  const stale = () =>
    qc
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.isInvalidated)
      .map((q) => JSON.stringify(q.queryKey))
      .sort()
  return { qc, stale }
}

describe('live community and organization events (spec 000 §7)', () => {
  it('reads again the lists, the permissions and the community an event names', () => {
    const { qc, stale } = seeded()
    expect(applyAdminEvent(qc, msg('community.updated', 'community:c1', { id: 'c1', name: 'New' }))).toBe(true)
    expect(stale()).toEqual(['["communities","mine",{}]', '["community","c1"]', '["organizations","list",{}]', '["organizations","o1"]', '["permissions","organization"]'])
  })

  it('takes the community from the context key when the payload has no id', () => {
    const { qc, stale } = seeded()
    applyAdminEvent(qc, msg('community.members.removed', 'community:c2', null))
    expect(stale()).toContain('["community","c2"]')
    expect(stale()).not.toContain('["community","c1"]')
  })

  it('reads the communities and the forum again when a forum becomes the member\'s', () => {
    const { qc, stale } = seeded()
    expect(applyAdminEvent(qc, msg('series.members.added', 'series:s1', { seriesId: 's1', profileIds: ['p1'] }))).toBe(true)
    expect(stale()).toEqual(['["communities","mine",{}]', '["community","c1"]', '["community","c2"]', '["series","s1"]'])
  })

  it('reads the communities and the forum again when a forum is deleted or members leave it', () => {
    for (const m of [msg('series.deleted', 'series:s1', { id: 's1' }), msg('series.members.removed', 'series:s1', { seriesId: 's1', profileIds: ['p1'] })]) {
      const { qc, stale } = seeded()
      expect(applyAdminEvent(qc, m)).toBe(true)
      expect(stale()).toEqual(['["communities","mine",{}]', '["community","c1"]', '["community","c2"]', '["series","s1"]'])
    }
  })

  it('reads every organization and community again on an organization event, and leaves other events alone', () => {
    const { qc, stale } = seeded()
    expect(applyAdminEvent(qc, msg('thread.created', 'thread:t1'))).toBe(false)
    expect(stale()).toEqual([])
    applyAdminEvent(qc, msg('organization.deleted', 'organization:o1', { id: 'o1' }))
    expect(stale()).not.toContain('["series","s1"]')
    expect(stale()).toContain('["community","c2"]')
    expect(stale()).toContain('["organizations","o1"]')
  })
})
