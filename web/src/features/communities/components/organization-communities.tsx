import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { Plus, Users } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useOrganizationPermissions } from '../api/get-organization-permissions'
import { useManageableCommunities } from '../api/list-manageable-communities'
import type { NamedRef } from '../api/types'
import { CommunityAdminMenu } from './community-admin-menu'
import { CommunityFormDialog } from './community-form-dialog'
import { CommunityCover } from './community-media'

/** OrganizationCommunities is an account's communities view: its communities, and Add community for those who may. */
export function OrganizationCommunities({ organization }: { organization: NamedRef }) {
  const { t } = useTranslation()
  const list = useManageableCommunities(`organizationId:${organization.id}`)
  const canAdd = !!useOrganizationPermissions().data?.whichOnesCanIAddCommunitiesTo?.some((o) => o.id === organization.id)
  const [creating, setCreating] = useState(false)
  return (
    <div className="grid gap-4">
      {canAdd && (
        <Button className="justify-self-start" onClick={() => setCreating(true)}>
          <Plus aria-hidden />
          {t('communities.manage.add')}
        </Button>
      )}
      {list.isPending ? (
        <div className="grid gap-2" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : list.isError ? (
        <ErrorFallback onRetry={() => void list.refetch()} />
      ) : list.data.results.length === 0 ? (
        <EmptyState icon={<Users />}>{t('communities.organization.empty')}</EmptyState>
      ) : (
        <ul className="divide-y rounded-xl border" data-testid="organization-communities">
          {list.data.results.map((c) => (
            <li key={c.id} className="flex items-center gap-3 px-4 py-3">
              <CommunityCover community={c} className="size-12 rounded-lg" />
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{c.name}</p>
                <p className="text-xs text-muted-foreground">{t('communities.organization.shares', { count: c.numShares })}</p>
              </div>
              <Button asChild variant="outline" size="sm">
                <Link to="/communities/$communityId" params={{ communityId: c.id }} aria-label={`${t('communities.manage.open')} ${c.name}`}>
                  {t('communities.manage.open')}
                </Link>
              </Button>
              <CommunityAdminMenu community={c} />
            </li>
          ))}
        </ul>
      )}
      {canAdd && <CommunityFormDialog target={{ organization }} open={creating} onOpenChange={setCreating} />}
    </div>
  )
}
