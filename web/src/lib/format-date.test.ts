import { describe, expect, it } from 'vitest'
import { formatPostDate, ordinal } from './format-date'

// Local times, so the test holds in any time zone.
const now = new Date(2026, 10, 22, 18, 30)

describe('formatPostDate', () => {
  it.each([
    ['same day, afternoon', new Date(2026, 10, 22, 15, 5), '3:05 PM'],
    ['same day, just after midnight', new Date(2026, 10, 22, 0, 7), '12:07 AM'],
    ['same day, noon', new Date(2026, 10, 22, 12, 0), '12:00 PM'],
    ['yesterday', new Date(2026, 10, 21, 9, 41), 'Nov 21st, 9:41 AM'],
    ['same day of another month', new Date(2026, 9, 22, 23, 59), 'Oct 22nd, 11:59 PM'],
    ['start of the year', new Date(2026, 0, 3, 8, 0), 'Jan 3rd, 8:00 AM'],
    ['last year', new Date(2025, 10, 22, 15, 5), 'Nov 22nd 2025'],
    ['years ago', new Date(2019, 1, 11, 10, 0), 'Feb 11th 2019'],
  ])('%s', (_, date, want) => {
    expect(formatPostDate(date, now)).toBe(want)
  })

  it('reads RFC 3339 strings', () => {
    const d = new Date(2026, 10, 22, 9, 4)
    expect(formatPostDate(d.toISOString(), now)).toBe('9:04 AM')
  })

  it('gives nothing for an unreadable date', () => {
    expect(formatPostDate('not a date', now)).toBe('')
  })
})

describe('ordinal', () => {
  it.each([
    [1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [11, '11th'], [12, '12th'], [13, '13th'],
    [21, '21st'], [22, '22nd'], [23, '23rd'], [30, '30th'], [31, '31st'],
  ])('%i', (n, want) => expect(ordinal(n)).toBe(want))
})
