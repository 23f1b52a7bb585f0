import { useEffect, useState } from 'react'
import type { Meeting } from '../api/types'
import { isOver } from '../lib/time'

/** The longest delay setTimeout keeps (about 24.8 days). */
const MAX_DELAY = 2 ** 31 - 1

/**
 * useClock is now (ms), read again when the first of times (ms) still to
 * come is reached: a screen that changes when a Meet Up's join window
 * opens, it starts or it ends shows the change then, without a reload.
 */
export function useClock(times: number[]): number {
  const [now, setNow] = useState(Date.now)
  const next = times.reduce((a, t) => (t > now && t < a ? t : a), Infinity)
  useEffect(() => {
    if (!Number.isFinite(next)) return
    // At least `next`, so that a timer that fires a little early still moves on.
    const id = setTimeout(() => setNow(Math.max(Date.now(), next)), Math.min(Math.max(0, next - Date.now()), MAX_DELAY))
    return () => clearTimeout(id)
  }, [next])
  return now
}

/**
 * useNotOver is the Meet Ups of list that are not over (ended, or past
 * their end), read again as each ends: a list of what is coming drops one
 * at its end, without a reload.
 */
export function useNotOver<M extends Pick<Meeting, 'endTime' | 'ended'>>(list: M[]): M[] {
  const now = useClock(list.map((m) => Date.parse(m.endTime)))
  return list.filter((m) => !isOver(m, now))
}
