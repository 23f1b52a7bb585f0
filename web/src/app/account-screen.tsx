import { AccountPage } from '@/features/accounts/components/account-page'
import type { AccountView } from '@/features/accounts/lib/views'
import { OrganizationCommunities } from '@/features/communities/components/organization-communities'

/** AccountScreen is an organization's page (accounts) with its communities view (communities). */
export function AccountScreen({ accountId, view }: { accountId: string; view: AccountView }) {
  return <AccountPage accountId={accountId} view={view} communities={(org) => <OrganizationCommunities organization={org} />} />
}
