import { api, unwrap } from '@/api/client'

/** invite mails the invitations of the people given (POST /communities/{id}/invitations); the server skips those with an account. */
export async function invite(communityId: string, profileIds: string[]) {
  return unwrap(await api.POST('/api/communities/{communityId}/invitations', { params: { path: { communityId } }, body: { profileIds } }))
}
