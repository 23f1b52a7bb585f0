import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from '@tanstack/react-router'
import { Building2, ChevronDown, Users } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { useCommunityPermissions } from '@/features/communities/api/get-community-permissions'
import { useOrganizationPermissions } from '@/features/communities/api/get-organization-permissions'
import { ManageCommunitiesDialog } from '@/features/communities/components/manage-communities-dialog'

/** manageEntries are the Manage menu's entries the user has (spec 000 §2.2, §6); none hides the menu. */
export function manageEntries(
  org: { whichOnesCanIManage: unknown[]; whichOnesCanIAddCommunitiesTo?: unknown[] } | undefined,
  community: { whichOnesCanIManage: unknown[] } | undefined,
): ('accounts' | 'communities')[] {
  const accounts = (org?.whichOnesCanIManage.length ?? 0) > 0
  const communities = (community?.whichOnesCanIManage.length ?? 0) > 0 || (org?.whichOnesCanIAddCommunitiesTo?.length ?? 0) > 0
  return [...(accounts ? (['accounts'] as const) : []), ...(communities ? (['communities'] as const) : [])]
}

/** useManageEntries are the Manage menu's entries the user has, from their organization and community permissions. */
export function useManageEntries() {
  const org = useOrganizationPermissions()
  const community = useCommunityPermissions()
  return manageEntries(org.data, community.data)
}

/**
 * ManageItems are the Manage menu's entries: Accounts (a page), and
 * Communities, which opens the Manage Communities dialog (onCommunities);
 * in the Manage menu, and in the small screens' top bar menu.
 */
export function ManageItems({ entries, onCommunities }: { entries: ReturnType<typeof manageEntries>; onCommunities: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <>
      {entries.includes('accounts') && (
        <DropdownMenuItem onSelect={() => void navigate({ to: '/accounts' })}>
          <Building2 aria-hidden />
          {t('nav.accounts')}
        </DropdownMenuItem>
      )}
      {entries.includes('communities') && (
        <DropdownMenuItem onSelect={onCommunities}>
          <Users aria-hidden />
          {t('nav.communities')}
        </DropdownMenuItem>
      )}
    </>
  )
}

/**
 * ManageMenu is the top bar's Manage menu: Accounts for those who manage
 * an organization, Communities (the Manage Communities dialog) for those
 * who manage a community or may add one.
 */
export function ManageMenu() {
  const { t } = useTranslation()
  const entries = useManageEntries()
  const [managing, setManaging] = useState(false)
  if (entries.length === 0) return null
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="sm" data-testid="manage-menu">
            <span>{t('nav.manage')}</span>
            <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <ManageItems entries={entries} onCommunities={() => setManaging(true)} />
        </DropdownMenuContent>
      </DropdownMenu>
      {entries.includes('communities') && <ManageCommunitiesDialog open={managing} onOpenChange={setManaging} />}
    </>
  )
}
