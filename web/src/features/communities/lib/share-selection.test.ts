import { describe, expect, it } from 'vitest'
import { changedCount, chooseBulk, chooseRow, emptySelection, hasSelection, resetBulk, resetRow, shareRequests, shownRole } from './share-selection'

const member = { id: 'p1', isMe: false, role: { id: 'member' as const, name: 'Member' } }
const me = { id: 'me', isMe: true, role: { id: 'admin' as const, name: 'Admin' } }

describe('the share dialog selection (spec 000 §4)', () => {
  it('enables Save only with a selection', () => {
    expect(hasSelection(emptySelection)).toBe(false)
    expect(hasSelection(chooseRow(emptySelection, 'p1', 'admin'))).toBe(true)
    expect(hasSelection(chooseBulk(emptySelection, null))).toBe(true)
    expect(hasSelection(resetRow(chooseRow(emptySelection, 'p1', 'admin'), 'p1'))).toBe(false)
  })

  it('clears a row when it is given the bulk role', () => {
    const s = chooseRow(chooseBulk(emptySelection, 'member'), 'p1', 'admin')
    expect(s.rows).toEqual({ p1: 'admin' })
    expect(chooseRow(s, 'p1', 'member').rows).toEqual({})
  })

  it('clears the rows when a bulk role is chosen, and keeps them when the bulk one is reset', () => {
    const rows = chooseRow(chooseRow(emptySelection, 'p1', 'admin'), 'p2', null)
    expect(chooseBulk(rows, 'member')).toEqual({ bulk: { roleId: 'member' }, rows: {} })
    expect(resetBulk(chooseRow(chooseBulk(rows, 'member'), 'p3', 'admin'))).toEqual({ rows: { p3: 'admin' } })
  })

  it('counts total − 1 people for a bulk change, else the rows chosen', () => {
    expect(changedCount(chooseBulk(emptySelection, 'admin'), 10)).toBe(9)
    expect(changedCount(chooseBulk(emptySelection, 'admin'), 0)).toBe(0)
    expect(changedCount(chooseRow(chooseRow(emptySelection, 'a', 'admin'), 'b', null), 10)).toBe(2)
  })

  it('shows the bulk role on every row but the caller’s', () => {
    const s = chooseBulk(emptySelection, 'admin')
    expect(shownRole(s, member)).toBe('admin')
    expect(shownRole(s, me)).toBe('admin')
    expect(shownRole(chooseBulk(emptySelection, null), me)).toBe('admin')
    expect(shownRole(chooseBulk(emptySelection, null), member)).toBe(null)
    expect(shownRole(emptySelection, member)).toBe('member')
  })

  it('sends the bulk change with the list filter, then the rows grouped by role', () => {
    const s = chooseRow(chooseRow(chooseRow(chooseBulk(emptySelection, null), 'a', 'admin'), 'b', 'admin'), 'c', 'member')
    expect(shareRequests(s, { keyword: 'ann', presetFilter: '', filters: 'role:member' })).toEqual({
      bulk: { roleId: null, keyword: 'ann', filters: 'role:member' },
      changes: [
        { roleId: 'admin', assigneeIds: ['a', 'b'] },
        { roleId: 'member', assigneeIds: ['c'] },
      ],
    })
    expect(shareRequests(chooseRow(emptySelection, 'a', null), {})).toEqual({ bulk: undefined, changes: [{ roleId: null, assigneeIds: ['a'] }] })
  })
})
