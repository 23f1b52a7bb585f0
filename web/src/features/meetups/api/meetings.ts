import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { InviteeRole, Meeting, MeetingForm, MeetingList } from './types'

// Every Meet Up call of contract 18, as fetchers, query options and
// mutations. A Meet Up is cached under ['meetings', roomId]; the feed's post
// carries a copy (thread.meeting) that seeds it (useMeetingOf).

export const meetingKeys = {
  all: ['meetings'] as const,
  lists: ['meetings', 'list'] as const,
  list: (seriesId?: string) => ['meetings', 'list', { seriesId: seriesId ?? null }] as const,
  one: (roomId: string) => ['meetings', roomId] as const,
  permissions: (roomId: string) => ['meetings', roomId, 'permissions'] as const,
  breakouts: (roomId: string) => ['meetings', roomId, 'breakouts'] as const,
}

const room = (roomId: string) => ({ params: { path: { roomId } } })

export const listMeetings = async (seriesId?: string, signal?: AbortSignal) =>
  unwrap(await api.GET('/api/meetings', { params: { query: { ...(seriesId ? { seriesId } : {}), page: 1, pageSize: 50 } }, signal }))
export const getMeeting = async (roomId: string, signal?: AbortSignal) => unwrap(await api.GET('/api/meetings/{roomId}', { ...room(roomId), signal }))
export const getPermissions = async (roomId: string, signal?: AbortSignal) =>
  unwrap(await api.GET('/api/meetings/{roomId}/permissions', { ...room(roomId), signal }))
export const getBreakouts = async (roomId: string, signal?: AbortSignal) => unwrap(await api.GET('/api/meetings/{roomId}/breakouts', { ...room(roomId), signal }))
export const createMeeting = async (seriesId: string, form: MeetingForm) =>
  unwrap(await api.POST('/api/series/{seriesId}/meetings', { params: { path: { seriesId } }, body: form }))
export const updateMeeting = async (roomId: string, form: MeetingForm) => unwrap(await api.PUT('/api/meetings/{roomId}', { ...room(roomId), body: form }))
export const register = async (roomId: string) => unwrap(await api.PUT('/api/meetings/{roomId}/registration', room(roomId)))
export const unregister = async (roomId: string) => unwrap(await api.DELETE('/api/meetings/{roomId}/registration', room(roomId)))
export const respond = async (threadId: string, response: 'yes' | 'no') =>
  unwrap(await api.PUT('/api/threads/{threadId}/meeting/response', { params: { path: { threadId } }, body: { response } }))
export const invite = async (roomId: string, invitees: Record<string, InviteeRole | null>) =>
  unwrap(await api.PATCH('/api/meetings/{roomId}/invite', { ...room(roomId), body: { invitees } }))
export const joinToken = async (roomId: string, userId: string) => unwrap(await api.POST('/api/meetings/join-token', { body: { roomId, userId } }))
export const openBreakouts = async (roomId: string) => unwrap(await api.POST('/api/meetings/{roomId}/open-breakouts', room(roomId)))
export const closeBreakouts = async (roomId: string) => unwrap(await api.POST('/api/meetings/{roomId}/close-breakouts', room(roomId)))
export const joinBreakoutRoom = async (roomId: string, roomName: string, peerId: string) =>
  unwrap(await api.POST('/api/meetings/{roomId}/join-breakout-room', { ...room(roomId), body: { roomName, peerId } }))
export const leaveBreakoutRoom = async (roomId: string, peerId: string) =>
  unwrap(await api.POST('/api/meetings/{roomId}/leave-breakout-room', { ...room(roomId), body: { peerId } }))
export const endMeeting = async (roomId: string) => unwrap(await api.POST('/api/meetings/{roomId}/end', room(roomId)))
export const deleteMeetupPost = async (threadId: string) => unwrap(await api.DELETE('/api/threads/{threadId}', { params: { path: { threadId } } }))

export const startRecording = async (roomId: string) => unwrap(await api.POST('/api/live-streams/record/{roomId}', room(roomId)))
export const cancelMinutes = async (roomId: string) => unwrap(await api.POST('/api/meetings/{roomId}/minutes/cancel', room(roomId)))
export const editMinutes = async (threadId: string, content: string) =>
  unwrap(await api.PATCH('/api/threads/{threadId}/meeting/minutes', { params: { path: { threadId } }, body: { content } }))
export const deleteMinutes = async (threadId: string) =>
  unwrap(await api.DELETE('/api/threads/{threadId}/meeting/minutes', { params: { path: { threadId } } }))

/** calendarUrl is the Meet Up's .ics file (Add to calendar). */
export const calendarUrl = (roomId: string) => `/api/meetings/${encodeURIComponent(roomId)}/calendar.ics`

export const meetingQuery = (roomId: string) => queryOptions({ queryKey: meetingKeys.one(roomId), queryFn: ({ signal }) => getMeeting(roomId, signal) })
export const meetingsQuery = (seriesId?: string) => queryOptions({ queryKey: meetingKeys.list(seriesId), queryFn: ({ signal }) => listMeetings(seriesId, signal) })
export const permissionsQuery = (roomId: string) =>
  queryOptions({ queryKey: meetingKeys.permissions(roomId), queryFn: ({ signal }) => getPermissions(roomId, signal) })
export const breakoutsQuery = (roomId: string) => queryOptions({ queryKey: meetingKeys.breakouts(roomId), queryFn: ({ signal }) => getBreakouts(roomId, signal) })

export const useMeetings = (seriesId?: string, enabled = true) => useQuery({ ...meetingsQuery(seriesId), enabled })
export const usePermissions = (roomId: string, enabled = true) => useQuery({ ...permissionsQuery(roomId), enabled })
export const useBreakouts = (roomId: string, enabled = true) => useQuery({ ...breakoutsQuery(roomId), enabled })

const newer = (a: Meeting | undefined, b: Meeting) => !a || Date.parse(b.updatedOn) >= Date.parse(a.updatedOn)

/**
 * storeMeeting keeps a Meet Up the API or an event gave: its own entry, the
 * lists that hold it, and the feed's posts that carry it (by the feed's
 * cache keys: ['threads', postId] and every channel's pages). A copy older
 * than the cached one is ignored. It reads the permissions again, which
 * follow from it.
 */
export function storeMeeting(qc: QueryClient, m: Meeting) {
  if (!newer(qc.getQueryData<Meeting>(meetingKeys.one(m.roomId)), m)) return
  qc.setQueryData(meetingKeys.one(m.roomId), m)
  qc.setQueriesData<MeetingList>({ queryKey: meetingKeys.lists }, (l) =>
    l && l.results.some((x) => x.roomId === m.roomId) ? { ...l, results: l.results.map((x) => (x.roomId === m.roomId ? m : x)) } : l,
  )
  setPostMeeting(qc, m.postId, () => m)
  void qc.invalidateQueries({ queryKey: meetingKeys.permissions(m.roomId) })
}

type Post = { id: string; meeting?: unknown }
type Pages = { pages: { results: Post[] }[] }

/** setPostMeeting changes the meeting of the post postId wherever the feed caches it. */
export function setPostMeeting(qc: QueryClient, postId: string, change: (m: Meeting) => Meeting) {
  const set = (p: Post) => (p.id === postId && p.meeting ? { ...p, meeting: change(p.meeting as Meeting) } : p)
  qc.setQueryData<Post>(['threads', postId], (p) => (p ? set(p) : p))
  qc.setQueriesData<Pages>({ predicate: (q) => q.queryKey[0] === 'channels' && q.queryKey[2] === 'threads' && q.queryKey.length === 3 }, (d) =>
    d?.pages ? { ...d, pages: d.pages.map((pg) => ({ ...pg, results: pg.results.map(set) })) } : d,
  )
}

/** dropMeeting forgets a deleted Meet Up: its entry, and its place in the lists. */
export function dropMeeting(qc: QueryClient, roomId: string) {
  qc.removeQueries({ queryKey: meetingKeys.one(roomId) })
  qc.setQueriesData<MeetingList>({ queryKey: meetingKeys.lists }, (l) =>
    l ? { ...l, results: l.results.filter((x) => x.roomId !== roomId), total: Math.max(0, l.total - (l.results.some((x) => x.roomId === roomId) ? 1 : 0)) } : l,
  )
}

/**
 * useMeetingOf is the current copy of a Meet Up a post or list brings: the
 * cached one when it is newer (a registration just made), else the one given.
 */
export function useMeetingOf(m: Meeting): Meeting {
  const q = useQuery({ ...meetingQuery(m.roomId), initialData: m, initialDataUpdatedAt: Date.now(), staleTime: Infinity })
  return q.data && newer(m, q.data) ? q.data : m
}

/** useMeetingAction runs a call that answers the Meet Up, and stores the answer. */
export function useMeetingAction<V>(fn: (v: V) => Promise<Meeting>, opts: { silent?: boolean } = {}) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, meta: { silent: !!opts.silent }, onSuccess: (m) => storeMeeting(qc, m) })
}

/** useCreateMeeting schedules a Meet Up; the lists are read again (the feed's post arrives by its own event). */
export function useCreateMeeting(seriesId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (form: MeetingForm) => createMeeting(seriesId, form),
    // A failure is shown in the form (the spec only logs it; the form keeps what was typed).
    meta: { silent: true },
    onSuccess: (t) => {
      if (t.meeting) qc.setQueryData(meetingKeys.one(t.meeting.roomId), t.meeting)
      void qc.invalidateQueries({ queryKey: meetingKeys.lists })
      void qc.invalidateQueries({ queryKey: ['channels', t.channelId, 'threads'] })
    },
  })
}

/** useDeleteMeetup deletes the Meet Up's post (and so the Meet Up). */
export function useDeleteMeetup(m: Pick<Meeting, 'roomId' | 'postId'>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => deleteMeetupPost(m.postId),
    meta: { silent: true },
    onSuccess: () => {
      dropMeeting(qc, m.roomId)
      void qc.invalidateQueries({ queryKey: ['threads', m.postId], exact: true })
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'channels' && q.queryKey[2] === 'threads' })
    },
  })
}
