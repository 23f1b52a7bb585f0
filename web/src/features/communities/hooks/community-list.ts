import type { MyCommunity } from '../api/get-my-communities'

export type CommunityFilter = 'all' | 'new' | 'visited'
export type CommunitySort = 'event' | 'latest'

const time = (s?: string | null) => (s ? Date.parse(s) : NaN)

/**
 * filterAndSort applies the community list rules (spec 000 §4): "new" is
 * a community never visited (no lastVisitedOn), "visited" the others; sort
 * by event is event start ascending (communities without an event last),
 * then assigned date and created date descending; latest is created date
 * descending.
 */
export function filterAndSort(list: MyCommunity[], filter: CommunityFilter, sort: CommunitySort): MyCommunity[] {
  const kept = list.filter((c) => (filter === 'new' ? !c.lastVisitedOn : filter === 'visited' ? !!c.lastVisitedOn : true))
  const byCreated = (a: MyCommunity, b: MyCommunity) => time(b.createdOn) - time(a.createdOn)
  if (sort === 'latest') return kept.sort(byCreated)
  return kept.sort((a, b) => {
    const ea = time(a.event?.data.startDateTime)
    const eb = time(b.event?.data.startDateTime)
    if (!Number.isNaN(ea) || !Number.isNaN(eb)) {
      if (Number.isNaN(ea)) return 1
      if (Number.isNaN(eb)) return -1
      if (ea !== eb) return ea - eb
    }
    return time(b.assignedOn) - time(a.assignedOn) || byCreated(a, b)
  })
}

export const manageable = (c: Pick<MyCommunity, 'role'>) => c.role === 'admin' || c.role === 'cascadingAdmin'

/**
 * communityForums is a community of the member's list with its forums, in
 * the list's order, as the forum lists show them: the forum page's side nav
 * and the small screens' forum switcher.
 */
export const communityForums = (c: Pick<MyCommunity, 'id' | 'name' | 'series'>) => ({ id: c.id, name: c.name, forums: c.series.map((f) => ({ id: f.id, name: f.name })) })
