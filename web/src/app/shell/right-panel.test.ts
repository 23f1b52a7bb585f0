import { describe, expect, it } from 'vitest'
import { availableTabs, shownTab } from './right-panel'

describe('availableTabs (spec 002 §2)', () => {
  it('offers the chat everywhere, and Team to every member of a forum', () => {
    expect(availableTabs({ forumSelected: false, forumAdmin: false })).toEqual(['chat'])
    expect(availableTabs({ forumSelected: true, forumAdmin: false })).toEqual(['chat', 'team'])
  })
  it('offers Insights, between chat and Team, to the forum’s admins', () => {
    expect(availableTabs({ forumSelected: true, forumAdmin: true })).toEqual(['chat', 'insights', 'team'])
  })
  it('offers the meetups tab, after the chat, only while a Meet Up is on', () => {
    expect(availableTabs({ forumSelected: false, forumAdmin: false, meetupActive: true })).toEqual(['chat', 'meetups'])
    expect(availableTabs({ forumSelected: true, forumAdmin: true, meetupActive: true })).toEqual(['chat', 'meetups', 'insights', 'team'])
    expect(shownTab(availableTabs({ forumSelected: false, forumAdmin: false }), 'meetups')).toBe('chat')
  })
  it('shows the stored tab when offered, else the first, else none', () => {
    expect(shownTab(['insights'], 'insights')).toBe('insights')
    expect(shownTab([], 'insights')).toBeUndefined()
  })
})
