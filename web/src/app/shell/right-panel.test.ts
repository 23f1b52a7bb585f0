import { describe, expect, it } from 'vitest'
import { availableTabs, shownTab } from './right-panel'

describe('availableTabs (spec 002 §2)', () => {
  it('offers the chat everywhere, and no more outside a forum nor to a plain member of one: Meet Ups and team are not built', () => {
    expect(availableTabs({ forumSelected: false, forumAdmin: false })).toEqual(['chat'])
    expect(availableTabs({ forumSelected: true, forumAdmin: false })).toEqual(['chat'])
  })
  it('offers Insights to the forum’s admins', () => {
    expect(availableTabs({ forumSelected: true, forumAdmin: true })).toEqual(['chat', 'insights'])
  })
  it('shows the stored tab when offered, else the first, else none', () => {
    expect(shownTab(['insights'], 'insights')).toBe('insights')
    expect(shownTab([], 'insights')).toBeUndefined()
  })
})
