import { describe, expect, it } from 'vitest'
import { availableTabs, shownTab } from './right-panel'

describe('availableTabs (spec 002 §2)', () => {
  it('offers no tab outside a forum (chat and Meet Ups are not built), and Team to every member of one', () => {
    expect(availableTabs({ forumSelected: false, forumAdmin: false })).toEqual([])
    expect(availableTabs({ forumSelected: true, forumAdmin: false })).toEqual(['team'])
  })
  it('offers Insights, then Team, to the forum’s admins', () => {
    expect(availableTabs({ forumSelected: true, forumAdmin: true })).toEqual(['insights', 'team'])
  })
  it('shows the stored tab when offered, else the first, else none', () => {
    expect(shownTab(['insights'], 'insights')).toBe('insights')
    expect(shownTab([], 'insights')).toBeUndefined()
  })
})
