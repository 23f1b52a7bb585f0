import { api, unwrap } from '@/api/client'
import type { OrgProfileCreate } from './types'

export async function addOrganizationProfile(organizationId: string, body: OrgProfileCreate) {
  return unwrap(await api.POST('/api/organizations/{id}/profiles', { params: { path: { id: organizationId } }, body }))
}

