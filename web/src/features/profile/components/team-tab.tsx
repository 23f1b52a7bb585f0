import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Users } from 'lucide-react'
import { ExpertStar } from '@/components/expert-star'
import { ProfileButton } from '@/components/profile-button'
import { PersonAvatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useOpenProfile } from '@/lib/profile-opener'
import { cn } from '@/lib/utils'
import { TEAM_ALL, TEAM_LIST, TEAM_PREVIEW, highlightedAdmins, useTeam, type TeamMember } from '../api/get-team'

// The team panel (spec 002 §2 "Team panel"): a forum's admins and experts,
// for any member of the forum. Docked it is a column of avatars; expanded,
// cards with "learn more", which opens the profile dialog; full screen, a
// title with the whole member list in a dialog, and a grid of the cards.

const fullName = (m: TeamMember) => `${m.firstName} ${m.lastName}`.trim()

function TeamAvatar({ m, className }: { m: TeamMember; className?: string }) {
  const { t } = useTranslation()
  return (
    <span className="relative inline-flex shrink-0">
      <PersonAvatar person={m} className={className} />
      {m.isExpert && <ExpertStar label={t('team.expert')} testId="team-expert-star" />}
    </span>
  )
}

/** TeamAvatars is the docked panel's column: the first admins and experts, each opening their profile. */
export function TeamAvatars({ seriesId }: { seriesId: string }) {
  const { t } = useTranslation()
  const q = useTeam(seriesId, TEAM_PREVIEW)
  if (!q.data) return null
  return (
    <ul className="grid justify-items-center gap-2" aria-label={t('team.title')} data-testid="team-avatars">
      {q.data.results.map((m) => (
        <li key={m.id}>
          {m.userId ? (
            <ProfileButton userId={m.userId} name={fullName(m)}>
              <TeamAvatar m={m} className="size-9" />
            </ProfileButton>
          ) : (
            <TeamAvatar m={m} className="size-9" />
          )}
        </li>
      ))}
      {q.data.total > q.data.results.length && (
        <li
          className="text-xs text-muted-foreground"
          aria-label={t('team.more', {
            count: q.data.total - q.data.results.length,
          })}
        >
          +{q.data.total - q.data.results.length}
        </li>
      )}
    </ul>
  )
}

function TeamCard({ m, highlighted }: { m: TeamMember; highlighted: boolean }) {
  const { t } = useTranslation()
  const open = useOpenProfile()
  const work = [m.jobTitle, m.company].filter(Boolean).join(` ${t('profile.at')} `)
  return (
    <li
      className={cn('flex min-w-0 items-center gap-3 rounded-lg border bg-card p-3', highlighted && 'border-primary/60 bg-primary/5')}
      data-testid="team-card"
      data-highlighted={highlighted || undefined}
      data-expert={m.isExpert || undefined}
    >
      <TeamAvatar m={m} className="size-11" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{fullName(m)}</p>
        {work && <p className="truncate text-xs text-muted-foreground">{work}</p>}
        <p className="text-xs text-muted-foreground">{[m.isExpert && t('team.expert'), m.role.startsWith('admin') && t('team.facilitator')].filter(Boolean).join(' · ')}</p>
      </div>
      {open && m.userId && (
        <Button variant="outline" size="sm" className="shrink-0" aria-label={t('team.learnMoreAbout', { name: fullName(m) })} onClick={() => open(m.userId!)}>
          {t('team.learnMore')}
        </Button>
      )}
    </li>
  )
}

/** TeamTab is the expanded panel's team: cards, and in full screen a title with the member list dialog and a grid. */
export function TeamTab({ seriesId, fullscreen = false }: { seriesId: string; fullscreen?: boolean }) {
  const { t } = useTranslation()
  const q = useTeam(seriesId, TEAM_LIST)
  const [listOpen, setListOpen] = useState(false)
  if (q.isError) return <ErrorFallback message={t('error.genericMessage')} onRetry={() => void q.refetch()} />
  if (!q.data) {
    return (
      <div className="grid gap-2" aria-busy="true">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-16" />
        ))}
      </div>
    )
  }
  const members = q.data.results
  const highlighted = highlightedAdmins(members)
  return (
    <section className="grid gap-3" data-testid="team-tab" aria-label={t('team.title')}>
      {fullscreen && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{t('team.title')}</h2>
          <Button variant="outline" size="sm" onClick={() => setListOpen(true)}>
            <Users aria-hidden />
            {t('team.memberList', { count: q.data.total })}
          </Button>
        </div>
      )}
      {members.length === 0 ? (
        <EmptyState icon={<Users />}>{t('team.empty')}</EmptyState>
      ) : (
        <ul className={cn('grid gap-2', fullscreen && 'sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4')}>
          {members.map((m) => (
            <TeamCard key={m.id} m={m} highlighted={highlighted.has(m.id)} />
          ))}
        </ul>
      )}
      {fullscreen && <TeamListDialog seriesId={seriesId} open={listOpen} onOpenChange={setListOpen} />}
    </section>
  )
}

/** TeamListDialog is the whole list of admins and experts (spec 002 §9: 9999). */
function TeamListDialog({ seriesId, open, onOpenChange }: { seriesId: string; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const q = useTeam(seriesId, TEAM_ALL, open)
  const members = q.data?.results ?? []
  const highlighted = highlightedAdmins(members)
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg" data-testid="team-list-dialog">
        <DialogHeader>
          <DialogTitle>{t('team.title')}</DialogTitle>
          <DialogDescription>{t('team.listDescription')}</DialogDescription>
        </DialogHeader>
        {q.isError ? (
          <ErrorFallback message={t('error.genericMessage')} onRetry={() => void q.refetch()} />
        ) : !q.data ? (
          <Skeleton className="h-24" />
        ) : (
          <ul className="grid max-h-[60vh] gap-2 overflow-y-auto">
            {members.map((m) => (
              <TeamCard key={m.id} m={m} highlighted={highlighted.has(m.id)} />
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  )
}
