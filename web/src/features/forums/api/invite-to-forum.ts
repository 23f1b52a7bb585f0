import { api, unwrap } from '@/api/client'

/** inviteToForum mails the people given an invitation to the forum (POST /api/series/{id}/invitations); the server skips those with an account. */
export async function inviteToForum(id: string, profileIds: string[]) {
  return unwrap(await api.POST('/api/series/{id}/invitations', { params: { path: { id } }, body: { profileIds } }))
}

/** forumPeople are the forum's lists of people, read again once someone is invited or assigned. */
export const forumPeople = (id: string) => ['members', 'assignables'].map((k) => ['series', id, k])
