import { describe, expect, it } from 'vitest'
import { nextPage } from '../api/list-pages'
import { formatDay, formatNumber, newest, relativeTime } from './format'

describe('insights formatting', () => {
  const now = new Date('2026-03-31T12:00:00Z')
  it.each([
    ['2026-03-31T11:59:55Z', undefined],
    ['2026-03-31T11:59:30Z', '30 seconds ago'],
    ['2026-03-31T11:55:00Z', '5 minutes ago'],
    ['2026-03-31T09:00:00Z', '3 hours ago'],
    ['2026-03-30T11:00:00Z', 'yesterday'],
    ['2026-03-20T12:00:00Z', '11 days ago'],
    ['nonsense', ''],
  ])('relativeTime(%s) is %s', (v, want) => {
    expect(relativeTime(v, now)).toBe(want)
  })
  it('takes the newest update of the loaded reports, null when none has one', () => {
    expect(newest([undefined, undefined])).toBeUndefined()
    expect(newest([null, undefined, null])).toBeNull()
    expect(newest([null, '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', undefined])).toBe('2026-03-02T00:00:00Z')
  })
  it('formats days and figures', () => {
    expect(formatDay('2026-03-03')).toBe('Mar 3')
    expect(formatDay('bad')).toBe('bad')
    expect(formatNumber(1234.56)).toBe('1,234.6')
  })
  it('reads the next page while fewer items than the total are loaded', () => {
    const page = (n: number, total: number) => ({ total, result: Array.from({ length: n }) })
    expect(nextPage(page(20, 45), [page(20, 45)])).toBe(2)
    expect(nextPage(page(5, 45), [page(20, 45), page(20, 45), page(5, 45)])).toBeUndefined()
    expect(nextPage(page(0, 45), [page(20, 45), page(0, 45)])).toBeUndefined()
  })
})
