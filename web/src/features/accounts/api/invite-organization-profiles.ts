import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** inviteOrganizationProfiles mails an invitation to each person without an account; the server skips the others. */
export async function inviteOrganizationProfiles(organizationId: string, profileIds: string[]) {
  return unwrap(await api.POST('/api/organizations/{id}/invitations', { params: { path: { id: organizationId } }, body: { profileIds } }))
}

/** useInviteOrganizationProfiles: the page says what was sent. */
export function useInviteOrganizationProfiles(organizationId: string) {
  return useMutation({
    mutationFn: (profileIds: string[]) => inviteOrganizationProfiles(organizationId, profileIds),
    meta: { silent: true },
  })
}
