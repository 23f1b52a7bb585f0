import { api, isApiError, unwrap } from '@/api/client'

// Web push in this browser (RFC 8030): the service worker (public/sw.js)
// shows what the server pushes; the subscription is kept by the server for
// the signed-in member (POST /api/push/subscriptions) and forgotten at
// sign-out, so the next person signing in here does not get the last one's
// notifications.

export const SERVICE_WORKER = '/sw.js'

/** pushSupported says whether this browser can receive web push at all. */
export const pushSupported = () =>
  typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof window !== 'undefined' && 'PushManager' in window && 'Notification' in window

/** The browser's subscription, if it has one (without registering the worker). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null
  const reg = await navigator.serviceWorker.getRegistration(SERVICE_WORKER)
  return (await reg?.pushManager.getSubscription()) ?? null
}

/** base64url to the bytes pushManager.subscribe wants as applicationServerKey. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4)
  const raw = atob(b64)
  const out = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i)
  return out
}

export type PushOutcome = 'on' | 'denied' | 'unsupported'

/**
 * turnOnPush asks for the permission, registers the service worker,
 * subscribes with the server's key and has the server keep the
 * subscription for the signed-in member. Errors of the server's calls
 * (push not configured…) are thrown.
 */
export async function turnOnPush(): Promise<PushOutcome> {
  if (!pushSupported()) return 'unsupported'
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') return 'denied'
  const { publicKey } = unwrap(await api.GET('/api/push/key'))
  const reg = await navigator.serviceWorker.register(SERVICE_WORKER, { scope: '/' })
  await navigator.serviceWorker.ready
  let sub = await reg.pushManager.getSubscription()
  const key = keyBytes(publicKey)
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    // Subscribed under another server key (the server's pair changed).
    await sub.unsubscribe()
    sub = null
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
  try {
    await keep(sub)
  } catch (e) {
    if (!isApiError(e) || e.code !== 'pushEndpointTaken') throw e
    // The server keeps this endpoint for another account with other keys:
    // this browser subscribes afresh, under a new endpoint of its own.
    await sub.unsubscribe()
    await keep(await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }))
  }
  return 'on'
}

/** keep has the server keep sub for the signed-in member. */
async function keep(sub: PushSubscription) {
  const j = sub.toJSON()
  unwrap(
    await api.POST('/api/push/subscriptions', {
      body: { endpoint: sub.endpoint, keys: { p256dh: j.keys?.p256dh ?? '', auth: j.keys?.auth ?? '' } },
    }),
  )
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array) {
  if (!a) return false
  const x = new Uint8Array(a)
  return x.length === b.length && x.every((v, i) => v === b[i])
}

/**
 * turnOffPush has the server forget this browser and drops its
 * subscription. Sign-out calls it first, while the session still works;
 * what fails is only logged, so signing out never waits on it.
 */
export async function turnOffPush() {
  try {
    const sub = await currentSubscription()
    if (!sub) return
    unwrap(await api.DELETE('/api/push/subscriptions', { body: { endpoint: sub.endpoint } }))
    await sub.unsubscribe()
  } catch (e) {
    console.warn('push unsubscribe', e)
  }
}
