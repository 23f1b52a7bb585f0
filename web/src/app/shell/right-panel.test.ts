import { describe, expect, it } from 'vitest'
import { availableTabs, shownTab } from './right-panel'

describe('availableTabs (spec 002 §2)', () => {
  it('offers no tab outside a forum, nor to a plain member of one: chat, Meet Ups and team are not built', () => {
    expect(availableTabs({ forumSelected: false, forumAdmin: false })).toEqual([])
    expect(availableTabs({ forumSelected: true, forumAdmin: false })).toEqual([])
  })
  it('offers Insights to the forum’s admins', () => {
    expect(availableTabs({ forumSelected: true, forumAdmin: true })).toEqual(['insights'])
  })
  it('shows the stored tab when offered, else the first, else none', () => {
    expect(shownTab(['insights'], 'insights')).toBe('insights')
    expect(shownTab([], 'insights')).toBeUndefined()
  })
})
