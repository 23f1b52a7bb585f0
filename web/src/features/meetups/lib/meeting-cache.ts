import type { QueryClient } from '@tanstack/react-query'
import { meetingKeys } from '../api/keys'
import type { Meeting, MeetingList } from '../api/types'

// How a Meet Up the API or an event gave is kept in the cache: its own
// entry, the lists that hold it, and the feed's posts that carry it. The
// calls' answers (useMeetingAction) and the live events (lib/live.ts) share it.

/** newer tells whether b is at least as recent as a (or a is not known). */
export const newer = (a: Meeting | undefined, b: Meeting) => !a || Date.parse(b.updatedOn) >= Date.parse(a.updatedOn)

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
