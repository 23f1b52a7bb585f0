import { OrganizationPage } from '@/features/organizations/components/organization-page'
import type { OrganizationView } from '@/features/organizations/lib/views'
import { OrganizationCommunities } from '@/features/communities/components/organization-communities'

/** OrganizationScreen is an organization's page (organizations) with its communities view (communities). */
export function OrganizationScreen({ organizationId, view }: { organizationId: string; view: OrganizationView }) {
  return <OrganizationPage organizationId={organizationId} view={view} communities={(org) => <OrganizationCommunities organization={org} />} />
}
