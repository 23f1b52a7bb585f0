import { looseApi, unwrap } from '@/api/client'
import type { Created, OrgProfileCreate } from './types'

export async function addOrganizationProfile(organizationId: string, body: OrgProfileCreate) {
  return unwrap<Created>(await looseApi.POST('/api/organizations/{id}/profiles', { params: { path: { id: organizationId } }, body }))
}

