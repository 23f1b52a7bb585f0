import { api, unwrap } from '@/api/client'

/** inviteOrganizationProfiles mails an invitation to each person without an account; the server skips the others. */
export async function inviteOrganizationProfiles(organizationId: string, profileIds: string[]) {
  return unwrap(await api.POST('/api/organizations/{id}/invitations', { params: { path: { id: organizationId } }, body: { profileIds } }))
}

