// The one date formatter of the app's feeds (spec 001 §9): the same day
// "h:mm a" (3:05 PM), the same year "MMM Do, h:mm a" (Nov 22nd, 3:05 PM),
// other years "MMM Do yyyy" (Nov 22nd 2025), in the browser's time zone.
// English only, as the app is; written out rather than taken from Intl so
// that the ordinal suffix and the exact shape do not depend on the runtime.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** ordinal is n with its English suffix: 1st, 2nd, 3rd, 4th, 11th, 22nd. */
export function ordinal(n: number): string {
  const tens = n % 100
  if (tens >= 11 && tens <= 13) return `${n}th`
  switch (n % 10) {
    case 1:
      return `${n}st`
    case 2:
      return `${n}nd`
    case 3:
      return `${n}rd`
    default:
      return `${n}th`
  }
}

function clock(d: Date): string {
  const h = d.getHours() % 12 || 12
  const m = String(d.getMinutes()).padStart(2, '0')
  return `${h}:${m} ${d.getHours() < 12 ? 'AM' : 'PM'}`
}

/**
 * formatPostDate shows when a post, comment or reply was written, relative
 * to now. An unreadable date gives ''.
 */
export function formatPostDate(value: string | Date, now: Date = new Date()): string {
  const d = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(d.getTime())) return ''
  const day = `${MONTHS[d.getMonth()]} ${ordinal(d.getDate())}`
  if (d.getFullYear() !== now.getFullYear()) return `${day} ${d.getFullYear()}`
  if (d.getMonth() === now.getMonth() && d.getDate() === now.getDate()) return clock(d)
  return `${day}, ${clock(d)}`
}
