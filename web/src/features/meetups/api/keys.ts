// The Meet Up calls of contract 18 are one file each in this folder. A Meet
// Up is cached under ['meetings', roomId]; the feed's post carries a copy
// (thread.meeting) that seeds it (useMeetingOf, in get-meetup.ts).

/** meetingKeys are the Meet Ups' query keys; the mutations and the live events invalidate by them. */
export const meetingKeys = {
  all: ['meetings'] as const,
  lists: ['meetings', 'list'] as const,
  list: (seriesId?: string) => ['meetings', 'list', { seriesId: seriesId ?? null }] as const,
  one: (roomId: string) => ['meetings', roomId] as const,
  permissions: (roomId: string) => ['meetings', roomId, 'permissions'] as const,
  breakouts: (roomId: string) => ['meetings', roomId, 'breakouts'] as const,
  chat: (roomId: string) => ['meetings', roomId, 'chat'] as const,
}
