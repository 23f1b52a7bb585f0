import { useSyncExternalStore } from 'react'
import { DEFAULT_PERIOD, PERIODS, type Period } from '../api/keys'

// The chosen period is a UI setting shared by the panel's slider and the
// docked summary, kept in localStorage like the panel's own state.
const KEY = 'agora.insights.period'
const listeners = new Set<() => void>()

function read(): Period {
  const v = Number(localStorage.getItem(KEY))
  return (PERIODS as readonly number[]).includes(v) ? (v as Period) : DEFAULT_PERIOD
}

/** setPeriod chooses the Insights period (30, 60 or 90 days). */
export function setPeriod(p: Period) {
  localStorage.setItem(KEY, String(p))
  listeners.forEach((l) => l())
}

/** usePeriod is the chosen Insights period, 90 days unless chosen. */
export function usePeriod(): Period {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    read,
    () => DEFAULT_PERIOD,
  )
}
