import { describe, expect, it } from 'vitest'
import { gridSize, pageSize, visiblePeers } from './grid'
import { mediaErrorKey } from './media-errors'
import { mirrorStore, readMirror } from './use-room'

describe('peers grid (spec 002 §9)', () => {
  it('has 2/3/4/6 columns by width, 3 rows on small screens and 2 otherwise, and keeps at most 8 peers', () => {
    expect([400, 800, 1200, 1600].map(gridSize)).toEqual([
      { columns: 2, rows: 3 },
      { columns: 3, rows: 2 },
      { columns: 4, rows: 2 },
      { columns: 6, rows: 2 },
    ])
    expect([400, 800, 1200, 1600].map(pageSize)).toEqual([6, 6, 8, 8])
  })

  it('moves the dominant speaker into view', () => {
    const ids = ['a', 'b', 'c', 'd', 'e']
    expect(visiblePeers(ids, ['e'], 3)).toEqual(['a', 'b', 'e'])
    expect(visiblePeers(ids, ['b'], 3)).toEqual(['a', 'b', 'c'])
    expect(visiblePeers(ids, [], 3)).toEqual(['a', 'b', 'c'])
  })
})

describe('media errors (spec 002 §8)', () => {
  const err = (name: string, message = '') => Object.assign(new Error(message), { name })
  it('maps the provider codes and the browser errors to their messages', () => {
    expect(mediaErrorKey({ code: 3003 }, 'camera')).toBe('meetups.errors.3003')
    expect(mediaErrorKey({ code: 4005 }, 'connection')).toBe('meetups.errors.network')
    expect(mediaErrorKey({ code: 3008 }, 'camera')).toBeNull()
    expect(mediaErrorKey(err('NotAllowedError'), 'camera')).toBe('meetups.errors.3001')
    expect(mediaErrorKey(err('NotAllowedError', 'Permission denied by system'), 'microphone')).toBe('meetups.errors.3002')
    expect(mediaErrorKey(err('NotReadableError'), 'camera')).toBe('meetups.errors.3003')
    expect(mediaErrorKey(err('NotFoundError'), 'microphone')).toBe('meetups.errors.micNotFound')
    expect(mediaErrorKey(err('NotAllowedError'), 'screen')).toBe('meetups.errors.screenShare')
    expect(mediaErrorKey(err('Weird'), 'camera')).toBe('meetups.errors.unknown')
  })
})

describe('the mirror setting (spec 002 §3 "Local settings")', () => {
  it('is on unless meetups.mirrorVideo holds false, and is kept as true or false', () => {
    expect(readMirror()).toBe(true)
    localStorage.setItem('meetups.mirrorVideo', 'false')
    expect(readMirror()).toBe(false)
    mirrorStore.set(true)
    expect(localStorage.getItem('meetups.mirrorVideo')).toBe('true')
    expect(readMirror()).toBe(true)
  })
})
