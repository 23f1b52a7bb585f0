import { describe, expect, it } from 'vitest'
import type { MyCommunity } from '../api/get-my-communities'
import { filterAndSort } from './community-list'

const c = (id: string, o: Partial<MyCommunity>): MyCommunity =>
  ({
    id,
    name: id,
    description: '',
    image: null,
    membershipType: 'invitationOnly',
    role: 'member',
    isSubscribed: true,
    isFree: true,
    price: 0,
    currency: 'USD',
    context: { organizationId: 'o' },
    lastVisitedOn: null,
    createdOn: '2024-01-01T00:00:00.000Z',
    assignedOn: '2024-01-01T00:00:00.000Z',
    event: null,
    series: [],
    ...o,
  }) as MyCommunity

const ev = (t: string) => ({ data: { startDateTime: t } })

describe('filterAndSort (spec 000 §4)', () => {
  const list = [
    c('old-visited', { createdOn: '2023-01-01T00:00:00.000Z', lastVisitedOn: '2024-02-01T00:00:00.000Z' }),
    c('new-late-event', { createdOn: '2024-03-01T00:00:00.000Z', event: ev('2030-01-02T00:00:00.000Z') }),
    c('new-early-event', { createdOn: '2024-02-01T00:00:00.000Z', event: ev('2030-01-01T00:00:00.000Z') }),
    c('recently-assigned', { createdOn: '2022-01-01T00:00:00.000Z', assignedOn: '2024-06-01T00:00:00.000Z' }),
  ]
  it('filters new (never visited) and visited', () => {
    expect(filterAndSort(list, 'new', 'latest').map((x) => x.id)).not.toContain('old-visited')
    expect(filterAndSort(list, 'visited', 'latest').map((x) => x.id)).toEqual(['old-visited'])
    expect(filterAndSort(list, 'all', 'latest')).toHaveLength(4)
  })
  it('sorts by event start, then assigned and created dates descending', () => {
    expect(filterAndSort(list, 'all', 'event').map((x) => x.id)).toEqual([
      'new-early-event',
      'new-late-event',
      'recently-assigned',
      'old-visited',
    ])
  })
  it('sorts latest by created date descending', () => {
    expect(filterAndSort(list, 'all', 'latest').map((x) => x.id)).toEqual([
      'new-late-event',
      'new-early-event',
      'old-visited',
      'recently-assigned',
    ])
  })
})
