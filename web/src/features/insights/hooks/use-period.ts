import { persistedStore } from '@/lib/persisted-store'
import { DEFAULT_PERIOD, PERIODS, type Period } from '../api/keys'

// The chosen period is a UI setting shared by the panel's slider and the
// docked summary, kept in localStorage like the panel's own state.
const periodStore = persistedStore<Period>('agora.insights.period', {
  fallback: DEFAULT_PERIOD,
  parse: (raw) => {
    const v = Number(raw)
    return (PERIODS as readonly number[]).includes(v) ? (v as Period) : undefined
  },
})

/** setPeriod chooses the Insights period (30, 60 or 90 days). */
export function setPeriod(p: Period) {
  periodStore.set(p)
}

/** usePeriod is the chosen Insights period, 90 days unless chosen. */
export const usePeriod: () => Period = periodStore.use
