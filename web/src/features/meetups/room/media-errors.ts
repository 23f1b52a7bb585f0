// The media and Meet Up errors of spec 002 §8, as i18n keys: the video
// provider's numeric codes, and the browser's own errors (getUserMedia,
// getDisplayMedia, LiveKit's connection errors) mapped to the same messages.
// null: shown to nobody (3008).

const NETWORK = new Set([1003, 2003, 4005, 4006])

export type MediaSource = 'camera' | 'microphone' | 'screen' | 'connection'

export function mediaErrorKey(err: unknown, source: MediaSource): string | null {
  const code = typeof err === 'object' && err !== null && 'code' in err ? Number((err as { code: unknown }).code) : NaN
  if (code === 3008) return null
  if (NETWORK.has(code)) return 'meetups.errors.network'
  if ([3001, 3002, 3003, 1000, 7002, 7004, 3013].includes(code)) return `meetups.errors.${code}`
  const name = err instanceof Error || (typeof err === 'object' && err !== null && 'name' in err) ? String((err as { name: unknown }).name) : ''
  const message = err instanceof Error ? err.message : ''
  if (source === 'screen' && (name === 'NotAllowedError' || name === 'NotFoundError' || name === 'NotSupportedError')) return 'meetups.errors.screenShare'
  if (name === 'NotAllowedError' || name === 'SecurityError') return /system/i.test(message) ? 'meetups.errors.3002' : 'meetups.errors.3001'
  if (name === 'NotReadableError' || name === 'TrackStartError') return 'meetups.errors.3003'
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError')
    return source === 'microphone' ? 'meetups.errors.micNotFound' : 'meetups.errors.cameraNotFound'
  if (name === 'ConnectionError' || source === 'connection') return 'meetups.errors.1000'
  return 'meetups.errors.unknown'
}
