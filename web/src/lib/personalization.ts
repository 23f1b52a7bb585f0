import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { HUB_EVENTS, LIVE_KEYS, payloadOf, type HubMessage } from '@/api/hub-events'
import { useHubEvents } from './hub'
import { useCurrentUser } from './session-context'

// The member's personalization (spec 000 §3): one flat object of dotted keys
// that several features keep their choices in (the chat's reminders, the
// notifications' seen, read and dismissed lists and settings, the feed's
// link confirmation, the time zone), so it is read, written and refreshed
// here, once: one cache under personalizationKey, which every reader shares
// and the live update refreshes.

export type Personalization = Schemas['Personalization']

export const personalizationKey = (userId: string) => ['personalization', userId] as const

/** getPersonalization is GET /users/{userId}/personalization: the stored keys only. */
async function getPersonalization(userId: string, signal?: AbortSignal): Promise<Personalization> {
  return unwrap(await api.GET('/api/users/{userId}/personalization', { params: { path: { userId } }, signal }))
}

/** patchPersonalization is PATCH /users/{userId}/personalization: it answers the whole merged object. */
async function patchPersonalization(userId: string, body: Personalization): Promise<Personalization> {
  return unwrap(await api.PATCH('/api/users/{userId}/personalization', { params: { path: { userId } }, body }))
}

export const personalizationQuery = (userId: string) =>
  queryOptions({
    queryKey: personalizationKey(userId),
    queryFn: ({ signal }) => getPersonalization(userId, signal),
  })

/**
 * usePersonalization is a member's personalization: userId's, else the
 * signed-in member's (nothing is read when signed out).
 */
export function usePersonalization(userId?: string) {
  const me = useCurrentUser()?.user.id
  const id = userId ?? me ?? ''
  return useQuery({ ...personalizationQuery(id), enabled: !!id })
}

/** merged is p with body's keys set (a null removes one), as the server merges a PATCH. */
export function merged(p: Personalization, body: Personalization): Personalization {
  const next = { ...p, ...body }
  for (const [k, v] of Object.entries(body)) if (v === null) delete next[k]
  return next
}

/**
 * useUpdatePersonalization merges keys into the user's personalization: at
 * once in the cache, so that a second change made before the first is
 * stored builds on it, then from the answer (the whole object), or read
 * again on a failure. A silent one (a choice the member did not make, such
 * as the time zone) shows no error toast.
 */
export function useUpdatePersonalization(userId: string, { silent = false } = {}) {
  const qc = useQueryClient()
  const key = personalizationKey(userId)
  return useMutation({
    mutationKey: key,
    meta: { silent },
    mutationFn: (body: Personalization) => patchPersonalization(userId, body),
    onMutate: (body) => {
      const p = qc.getQueryData<Personalization>(key)
      if (p) qc.setQueryData(key, merged(p, body))
    },
    // While another change is under way (this one still counts as pending
    // here), its answer will be newer than this one.
    onSuccess: (data) => {
      if (qc.isMutating({ mutationKey: key }) <= 1) qc.setQueryData(key, data)
    },
    onError: () => void qc.invalidateQueries({ queryKey: key }),
  })
}

/** idList is the list of ids stored under key (none when absent or not a list). */
export function idList(p: Personalization | undefined, key: string): string[] {
  const v = p?.[key]
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
}

/** LIST_MAX is the most entries a personalization list keeps (the server refuses more). */
export const LIST_MAX = 500

/** withId is list with id added last, keeping the newest LIST_MAX. */
export function withId(list: string[], id: string): string[] {
  const next = [...list.filter((x) => x !== id), id]
  return next.slice(Math.max(0, next.length - LIST_MAX))
}

/** TIMEZONE_KEY holds the member's IANA time zone, the one their digests are timed in. */
export const TIMEZONE_KEY = 'notifications.timezone'

/**
 * setTimeZoneIfEmpty stores the browser's time zone as the member's when
 * they have none yet (spec 000 §7: on sign-in). It runs beside the sign-in,
 * so a failure is only logged.
 */
export async function setTimeZoneIfEmpty(qc: QueryClient, userId: string, zone: string | undefined = Intl.DateTimeFormat().resolvedOptions().timeZone) {
  if (!zone) return
  try {
    const current = await qc.fetchQuery(personalizationQuery(userId))
    if (typeof current[TIMEZONE_KEY] === 'string' && current[TIMEZONE_KEY]) return
    const data = await patchPersonalization(userId, { [TIMEZONE_KEY]: zone })
    qc.setQueryData(personalizationKey(userId), data)
  } catch (e) {
    console.warn('time zone not stored', e)
  }
}

/**
 * applyPersonalizationEvent reads the personalization again when m says it
 * changed elsewhere (another tab, an unsubscribe link in a mail), so every
 * screen that shows it follows. It says whether it did.
 */
export function applyPersonalizationEvent(qc: QueryClient, m: HubMessage): boolean {
  const p = payloadOf(m, HUB_EVENTS.personalizationUpdated)
  if (typeof p?.userId !== 'string') return false
  void qc.invalidateQueries({ queryKey: personalizationKey(p.userId) })
  return true
}

/** usePersonalizationLive keeps the member's personalization current wherever they are; read before a connection went live, it is read again (useHubEvents). */
export function usePersonalizationLive() {
  const qc = useQueryClient()
  const me = useCurrentUser()?.user.id
  useHubEvents(
    me ? LIVE_KEYS.user(me) : undefined,
    (m) => void applyPersonalizationEvent(qc, m),
    (missed) => void (me && qc.invalidateQueries({ queryKey: personalizationKey(me), predicate: missed })),
  )
}
