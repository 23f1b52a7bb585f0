import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useMyCommunities } from '../api/get-my-communities'
import { manageable } from '../hooks/community-list'

/** ManageCommunitiesDialog lists the communities the user administers (spec 000 §2.4). */
export function ManageCommunitiesDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const q = useMyCommunities()
  const list = q.data?.results.filter(manageable) ?? []
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('nav.communities')}</DialogTitle>
          <DialogDescription>{t('nav.manage')}</DialogDescription>
        </DialogHeader>
        {q.isPending ? (
          <div className="grid gap-2">
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : q.isError ? (
          <ErrorFallback onRetry={() => void q.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState>{t('home.empty')}</EmptyState>
        ) : (
          <ul className="grid gap-2">
            {list.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-3 rounded-md border p-3">
                <span className="truncate font-medium">{c.name}</span>
                <Button asChild size="sm" variant="outline" onClick={() => onOpenChange(false)}>
                  <Link to="/communities/$communityId" params={{ communityId: c.id }}>
                    {t('home.open')}
                  </Link>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  )
}
