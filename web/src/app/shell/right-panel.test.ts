import { act, renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { availableTabs, setPanel, shownTab, usePanel } from './right-panel'

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

describe('the panel state, kept under agora.panel', () => {
  it('reads the JSON earlier versions kept, filling what it lacks, and keeps each change the same way', () => {
    localStorage.setItem('agora.panel', '{"expanded":true,"tab":"team"}')
    const { result } = renderHook(() => usePanel())
    expect(result.current).toEqual({ expanded: true, tab: 'team', fullscreen: false })
    act(() => setPanel({ fullscreen: true }))
    expect(result.current).toEqual({ expanded: true, tab: 'team', fullscreen: true })
    expect(JSON.parse(localStorage.getItem('agora.panel')!)).toEqual({ expanded: true, tab: 'team', fullscreen: true })
  })

  it('is docked on the chat when what is kept is not JSON', () => {
    localStorage.setItem('agora.panel', 'docked')
    expect(renderHook(() => usePanel()).result.current).toEqual({ expanded: false, tab: 'chat', fullscreen: false })
  })
})
