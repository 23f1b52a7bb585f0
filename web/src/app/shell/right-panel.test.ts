import { describe, expect, it } from 'vitest'
import { availableTabs } from './right-panel'

describe('availableTabs (spec 002 §2)', () => {
  it('offers chat only outside a forum', () => {
    expect(availableTabs({ forumSelected: false, forumAdmin: false, meetingActive: false })).toEqual(['chat'])
  })
  it('adds team in a forum, insights for its admins, meetups while a meeting is active', () => {
    expect(availableTabs({ forumSelected: true, forumAdmin: false, meetingActive: false })).toEqual(['chat', 'team'])
    expect(availableTabs({ forumSelected: true, forumAdmin: true, meetingActive: true })).toEqual(['chat', 'meetups', 'insights', 'team'])
  })
})
