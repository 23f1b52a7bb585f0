import { describe, expect, it } from 'vitest'
import {
  canConfirm,
  newcomers,
  roleMenu,
  roleOf,
  showMemberSearch,
  stage,
  toStagedState,
  unstage,
  type Staged,
  type StagedPerson,
} from './access-rules'

const p = (id: string, userId: string | null = `u-${id}`): StagedPerson => ({ id, firstName: id, lastName: 'X', email: `${id}@x.co`, userId })
const none: Staged = new Map()

describe('staged changes (spec 001 §3, §5)', () => {
  it('records a change and drops it when the original role is chosen again', () => {
    let s = stage(none, p('a'), 'member', 'admin')
    expect(roleOf(s, 'a', 'member')).toBe('admin')
    expect(canConfirm(s)).toBe(true)
    s = stage(s, p('a'), 'member', 'member')
    expect(s.size).toBe(0)
    expect(roleOf(s, 'a', 'member')).toBe('member')
    expect(canConfirm(s)).toBe(false)
  })

  it('keeps the original role when a person is changed twice', () => {
    let s = stage(none, p('a'), 'admin', 'member')
    s = stage(s, p('a'), 'admin', 'member-expert')
    expect(s.get('a')).toMatchObject({ original: 'admin', next: 'member-expert' })
  })

  it('does not mutate the state it was given', () => {
    const s = stage(none, p('a'), null, 'member')
    stage(s, p('b'), null, 'member')
    unstage(s, 'a')
    expect([...s.keys()]).toEqual(['a'])
  })

  it('groups people by target role, removal as null, in staging order', () => {
    let s: Staged = none
    s = stage(s, p('a'), 'member', 'admin')
    s = stage(s, p('b'), null, 'member')
    s = stage(s, p('c'), 'member', null)
    s = stage(s, p('d'), 'admin', 'admin-expert')
    s = stage(s, p('e'), null, 'member')
    expect(toStagedState(s)).toEqual({
      assignments: [
        { roleId: 'admin', assigneeIds: ['a'] },
        { roleId: 'member', assigneeIds: ['b', 'e'] },
        { roleId: null, assigneeIds: ['c'] },
        { roleId: 'admin-expert', assigneeIds: ['d'] },
      ],
    })
    expect(toStagedState(none)).toEqual({ assignments: [] })
  })

  it('invites only the people who join the forum', () => {
    let s: Staged = none
    s = stage(s, p('new'), null, 'member')
    s = stage(s, p('promoted'), 'member', 'admin')
    s = stage(s, p('gone'), 'member', null)
    expect(newcomers(s)).toEqual(['new'])
  })
})

describe('roleMenu (spec 001 §4, §6)', () => {
  const base = { meUserId: 'u-me', meIsForumAdmin: false, otherAdmins: ['x', 'y'], exclusivity: 'inviteOnly' as const }

  it('locks the user own row', () => {
    expect(roleMenu({ ...base, member: { id: 'me', userId: 'u-me' }, current: 'admin' })).toEqual({ kind: 'self' })
  })

  it('offers every role and removal in an invite-only forum', () => {
    expect(roleMenu({ ...base, member: { id: 'a', userId: 'u-a' }, current: 'member' })).toEqual({
      kind: 'menu',
      options: ['admin', 'member', 'admin-expert', 'member-expert', 'remove'],
      lastAdmin: false,
    })
  })

  it('hides removal when the forum is open', () => {
    const m = roleMenu({ ...base, exclusivity: 'open', member: { id: 'a', userId: 'u-a' }, current: 'member' })
    expect(m.kind === 'menu' && m.options).toEqual(['admin', 'member', 'admin-expert', 'member-expert'])
  })

  it('limits the last admin to the admin roles', () => {
    const m = roleMenu({ ...base, otherAdmins: ['a'], member: { id: 'a', userId: 'u-a' }, current: 'admin' })
    expect(m).toEqual({ kind: 'menu', options: ['admin', 'admin-expert'], lastAdmin: true })
  })

  it('does not limit an admin when another one stays', () => {
    expect(roleMenu({ ...base, otherAdmins: ['a', 'b'], member: { id: 'a', userId: 'u-a' }, current: 'admin' })).toMatchObject({ lastAdmin: false })
    // The set names someone else: this member is not the one left.
    expect(roleMenu({ ...base, otherAdmins: ['b'], member: { id: 'a', userId: 'u-a' }, current: 'admin' })).toMatchObject({ lastAdmin: false })
    // The user is an admin of the forum and cannot change their own row, so they stay.
    expect(roleMenu({ ...base, meIsForumAdmin: true, otherAdmins: ['a'], member: { id: 'a', userId: 'u-a' }, current: 'admin' })).toMatchObject({
      lastAdmin: false,
    })
    // Not known yet.
    expect(roleMenu({ ...base, otherAdmins: undefined, member: { id: 'a', userId: 'u-a' }, current: 'admin' })).toMatchObject({ lastAdmin: false })
  })

  it('does not limit a member the staged state already demoted', () => {
    expect(roleMenu({ ...base, otherAdmins: ['a'], member: { id: 'a', userId: 'u-a' }, current: 'member' })).toMatchObject({ lastAdmin: false })
  })

  it('treats an invited person (no account) as anyone else', () => {
    expect(roleMenu({ ...base, member: { id: 'a', userId: null }, current: 'member' })).toMatchObject({ kind: 'menu' })
  })
})

describe('showMemberSearch (spec 001 §2, §9)', () => {
  it('hides the search box for 10 or fewer assigned members', () => {
    expect(showMemberSearch(undefined)).toBe(false)
    expect(showMemberSearch(10)).toBe(false)
    expect(showMemberSearch(11)).toBe(true)
  })
})
