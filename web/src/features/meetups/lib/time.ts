import { formatPostDate } from '@/lib/format-date'
import type { Meeting } from '../api/types'

// The Meet Up clock (spec 002 §4, §9): joining opens 10 minutes before the
// start; the reminder is 15 minutes before; the ending-soon warning 5
// minutes before the end.

export const GRACE_MINUTES = 10
export const ENDING_SOON_MINUTES = 5

const MIN = 60_000

/** canJoinYet: the grace window has opened. */
export const canJoinYet = (m: Pick<Meeting, 'startTime'>, now = Date.now()) => now >= Date.parse(m.startTime) - GRACE_MINUTES * MIN

/** isOver: past its end, or ended. */
export const isOver = (m: Pick<Meeting, 'endTime' | 'ended'>, now = Date.now()) => m.ended || now >= Date.parse(m.endTime)

/** endingSoonAt is when the ending-soon warning shows. */
export const endingSoonAt = (m: Pick<Meeting, 'endTime'>) => Date.parse(m.endTime) - ENDING_SOON_MINUTES * MIN

function clock(d: Date) {
  const h = d.getHours() % 12 || 12
  return `${h}:${String(d.getMinutes()).padStart(2, '0')} ${d.getHours() < 12 ? 'AM' : 'PM'}`
}

/**
 * zoneName is the viewer's time zone at d as the browser abbreviates it
 * ("CET", "GMT+1", "UTC"): a Meet Up's members are in several, so its
 * times say whose they are.
 */
export function zoneName(d: Date): string {
  return new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? ''
}

/** timeFrame is "Nov 24th, 3:00 PM – 3:30 PM CET" (the start as the feed shows dates, then the end's time and the viewer's time zone). */
export function timeFrame(m: Pick<Meeting, 'startTime' | 'endTime'>, now = new Date()): { start: string; end: string } {
  const s = new Date(m.startTime)
  const start = formatPostDate(s, now)
  // The feed's date drops the time for other years; a Meet Up always shows it.
  const e = new Date(m.endTime)
  return { start: s.getFullYear() !== now.getFullYear() ? `${start}, ${clock(s)}` : start, end: `${clock(e)} ${zoneName(e)}`.trim() }
}
