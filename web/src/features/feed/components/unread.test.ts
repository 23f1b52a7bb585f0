import { describe, expect, it } from 'vitest'
import { ME, OTHER } from '@/test/factories'
import { isNew } from './unread'

describe('isNew (spec 001 §4 "Feed refresh and unread")', () => {
  const seen = { lastSeen: '2026-11-20T09:00:00.000Z', me: ME }
  const later = '2026-11-20T10:00:00.000Z'

  it('marks what others made since the last visit', () => {
    expect(isNew({ createdOn: later, creatorId: OTHER }, seen)).toBe(true)
    expect(isNew({ createdOn: '2026-11-20T08:00:00.000Z', creatorId: OTHER }, seen)).toBe(false)
    expect(isNew({ createdOn: later, creatorId: OTHER }, { ...seen, lastSeen: null })).toBe(false)
  })

  it('never marks the member’s own, an anonymous question of theirs included', () => {
    expect(isNew({ createdOn: later, creatorId: ME }, seen)).toBe(false)
    expect(isNew({ createdOn: later, creatorId: null, isMine: true }, seen)).toBe(false)
    expect(isNew({ createdOn: later, creatorId: null, isMine: false }, seen)).toBe(true)
  })
})
