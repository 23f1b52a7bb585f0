import type { Schemas } from '@/api/client'

// The notification settings (contract of issue 17): keys of the member's
// personalization, with the server's defaults for those never set (GET
// answers only the stored keys).

export type Frequency = 'off' | 'daily' | 'weekly'
export const FREQUENCIES: Frequency[] = ['off', 'daily', 'weekly']

export const SWITCHES = [
  'notifications.email.mentions',
  'notifications.push.mentions',
  'notifications.email.privateChats',
  'notifications.push.privateChats',
  'notifications.push.comments',
] as const
export type SwitchKey = (typeof SWITCHES)[number]

export type NotificationSettings = Record<SwitchKey, boolean> & {
  'notifications.digest.frequency': Frequency
  'notifications.insights.frequency': Frequency
  'notifications.digest.hour': number
  'notifications.digest.weekday': number
  'notifications.timezone': string
}

const isFrequency = (v: unknown): v is Frequency => typeof v === 'string' && (FREQUENCIES as string[]).includes(v)
const isInt = (v: unknown, lo: number, hi: number): v is number => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi

/** settingsOf reads the settings from a personalization, each absent or odd key at its default. */
export function settingsOf(p: Schemas['Personalization'] | undefined): NotificationSettings {
  const d = p ?? {}
  const bool = (k: SwitchKey) => (typeof d[k] === 'boolean' ? (d[k] as boolean) : true)
  const tz = d['notifications.timezone']
  return {
    ...(Object.fromEntries(SWITCHES.map((k) => [k, bool(k)])) as Record<SwitchKey, boolean>),
    'notifications.digest.frequency': isFrequency(d['notifications.digest.frequency']) ? d['notifications.digest.frequency'] : 'daily',
    'notifications.insights.frequency': isFrequency(d['notifications.insights.frequency']) ? d['notifications.insights.frequency'] : 'weekly',
    'notifications.digest.hour': isInt(d['notifications.digest.hour'], 0, 23) ? d['notifications.digest.hour'] : 8,
    'notifications.digest.weekday': isInt(d['notifications.digest.weekday'], 0, 6) ? d['notifications.digest.weekday'] : 1,
    'notifications.timezone': typeof tz === 'string' && tz ? tz : 'UTC',
  }
}

/** timeZones are the zones to choose from: the browser's list (with the current one kept), else the current one and UTC. */
export function timeZones(current: string): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (k: string) => string[] }
  const list = intl.supportedValuesOf?.('timeZone') ?? []
  return [...new Set(['UTC', current, ...list])].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)))
}
