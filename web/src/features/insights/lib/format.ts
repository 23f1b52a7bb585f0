// Formatting of the Insights figures: relative "updated" times, days of the
// charts, and numbers. English, as the app is.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
]

/**
 * relativeTime says how long ago `value` was: "5 minutes ago", "yesterday";
 * under ten seconds (or a clock slightly ahead) it gives undefined, for
 * the caller's "just now". An unreadable date gives ''.
 */
export function relativeTime(value: string, now: Date = new Date()): string | undefined {
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return ''
  const seconds = Math.round((now.getTime() - d.getTime()) / 1000)
  if (seconds < 10) return undefined
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return rtf.format(-Math.floor(seconds / size), unit)
  }
  return rtf.format(-seconds, 'second')
}

/** newest is the latest of the reports' updatedOn times; null when every report has none, undefined when none is loaded. */
export function newest(values: (string | null | undefined)[]): string | null | undefined {
  const loaded = values.filter((v) => v !== undefined)
  if (loaded.length === 0) return undefined
  const times = loaded.filter((v): v is string => v !== null)
  if (times.length === 0) return null
  return times.reduce((a, b) => (new Date(b) > new Date(a) ? b : a))
}

/** formatDay shows a report's UTC date (yyyy-mm-dd) as "Mar 3". */
export function formatDay(date: string): string {
  const [, m, d] = date.split('-').map(Number)
  if (!m || !d || m > 12) return date
  return `${MONTHS[m - 1]} ${d}`
}

/** formatNumber shows a count or an average: grouped thousands, at most one decimal. */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat('en', { maximumFractionDigits: 1 }).format(n)
}
