import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import { ArrowDownAZ, ArrowUpAZ, ChevronDown, Search, UserPlus } from 'lucide-react'
import { InvitationBadge, InviteButton, useInvite } from '@/components/invitation-status'
import { PersonAvatar } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { Input } from '@/components/ui/input'
import { Switch } from '@/components/ui/switch'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { toast } from '@/components/ui/toast'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { useCommunityAssignables, type AssignablesFilter } from '../api/get-community-assignables'
import { useCommunityRoles } from '../api/get-community-roles'
import { useSetCommunityComplimentary } from '../api/set-community-complimentary'
import { invite } from '../api/invite-to-community'
import { useShareCommunity } from '../api/share-community'
import type { Community, CommunityAssignable, CommunityRole } from '../api/types'
import {
  changedCount,
  chooseBulk,
  chooseRow,
  emptySelection,
  hasSelection,
  isChosen,
  resetBulk,
  resetRow,
  shareRequests,
  shownRole,
  type Choice,
  type ShareSelection,
} from '../lib/share-selection'
import { InviteMembers, inviteModes } from './invite-members'

/**
 * ShareDialog is the community share dialog (spec 000 §2.7, §4): the
 * organization's people with their role in the community, a new role per
 * person or one for everyone the filter selects, and Save after a
 * confirmation.
 */
export function ShareDialog({ community, open, onOpenChange }: { community: Community; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const close = (o: boolean) => {
    onOpenChange(o)
    // On closing, the members are read again.
    if (!o) queryClient.removeQueries({ queryKey: ['community', community.id, 'assignables'] })
  }
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="flex max-h-[95dvh] max-w-2xl flex-col" data-testid="share-dialog">
        <DialogHeader>
          <DialogTitle>{t('communities.share.title', { name: community.name })}</DialogTitle>
          <DialogDescription>{t('communities.share.description')}</DialogDescription>
        </DialogHeader>
        {open && <ShareBody community={community} onClose={() => close(false)} />}
      </DialogContent>
    </Dialog>
  )
}

const initialFilter: AssignablesFilter = { keyword: '', presetFilter: '', filters: '', sort: '' }

function ShareBody({ community, onClose }: { community: Community; onClose: () => void }) {
  const { t } = useTranslation()
  const [keyword, setKeyword] = useState('')
  const [filter, setFilter] = useState(initialFilter)
  const debounced = useDebouncedValue(keyword.trim(), 250)
  const f = { ...filter, keyword: debounced }
  const list = useCommunityAssignables(community.id, f)
  const roles = useCommunityRoles(community.id)
  const share = useShareCommunity(community.id)
  const [sel, setSel] = useState<ShareSelection>(emptySelection)
  const [confirming, setConfirming] = useState(false)
  const [inviting, setInviting] = useState(false)
  const lastScrollLoad = useRef(0)
  const people = list.data?.pages.flatMap((p) => p.results) ?? []
  const total = list.data?.pages[0]?.total ?? 0
  const count = changedCount(sel, total)
  const roleNames = roles.data ?? []
  const modes = inviteModes(community.permissions)
  // A row's invitation reads the list again: its label turns to Invited.
  const inviteOne = useInvite((ids) => invite(community.id, ids), [['community', community.id, 'assignables']])

  const save = () =>
    share.mutate(shareRequests(sel, f), {
      onSuccess: () => {
        toast({ title: t('global:success.invitationsUpdated', { count }), variant: 'success' })
        setConfirming(false)
        setSel(emptySelection)
        onClose()
      },
      onError: () => setConfirming(false),
    })

  return (
    <>
      <div className="flex flex-wrap items-center gap-2" data-testid="share-filter-bar">
        <div className="relative min-w-48 flex-1">
          <Search className="absolute left-2.5 top-2.5 size-4 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            className="pl-8"
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            placeholder={t('communities.share.search')}
            aria-label={t('communities.share.search')}
          />
        </div>
        <Select value={filter.presetFilter || 'all'} onValueChange={(v) => setFilter({ ...filter, presetFilter: v === 'all' ? '' : (v as AssignablesFilter['presetFilter']) })}>
          <SelectTrigger className="w-36" aria-label={t('communities.share.show')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">{t('communities.share.everyone')}</SelectItem>
            <SelectItem value="assigned">{t('communities.share.assigned')}</SelectItem>
            <SelectItem value="unassigned">{t('communities.share.unassigned')}</SelectItem>
          </SelectContent>
        </Select>
        <Select value={filter.filters || 'all'} onValueChange={(v) => setFilter({ ...filter, filters: v === 'all' ? '' : (v as AssignablesFilter['filters']) })}>
          <SelectTrigger className="w-32" aria-label={t('communities.share.role')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">{t('communities.share.anyRole')}</SelectItem>
            {roleNames.map((r) => (
              <SelectItem key={r.id} value={`role:${r.id}`}>
                {r.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button
          variant="outline"
          size="icon"
          aria-label={filter.sort === 'name desc' ? t('communities.share.sortAsc') : t('communities.share.sortDesc')}
          onClick={() => setFilter({ ...filter, sort: filter.sort === 'name desc' ? '' : 'name desc' })}
        >
          {filter.sort === 'name desc' ? <ArrowUpAZ aria-hidden /> : <ArrowDownAZ aria-hidden />}
        </Button>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="share-total">
          {list.isPending ? t('communities.share.loading') : t('communities.share.total', { count: total })}
        </p>
        <div className="flex items-center gap-2">
          {modes.length > 0 && (
            <Button variant="outline" size="sm" onClick={() => setInviting(true)}>
              <UserPlus aria-hidden />
              {t('communities.share.inviteNew')}
            </Button>
          )}
          <RoleMenu
            label={sel.bulk ? t('communities.share.allAs', { role: choiceName(sel.bulk.roleId, roleNames, t) }) : t('communities.share.shareAllAs')}
            roles={roleNames}
            chosen={!!sel.bulk}
            onChoose={(r) => setSel((s) => chooseBulk(s, r))}
            onReset={() => setSel(resetBulk)}
            testId="bulk-menu"
          />
        </div>
      </div>
      <div
        className="-mx-2 max-h-[720px] min-h-40 overflow-y-auto px-2"
        data-testid="share-list"
        onScroll={(e) => {
          // The next page loads near the end of the list, at most every 75 ms (spec 000 §9).
          const el = e.currentTarget
          const now = Date.now()
          if (el.scrollHeight - el.scrollTop - el.clientHeight > 100 || now - lastScrollLoad.current < 75) return
          lastScrollLoad.current = now
          if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage()
        }}
      >
        {list.isPending ? (
          <div className="grid gap-2" aria-busy="true">
            {[0, 1, 2, 3, 4].map((i) => (
              <Skeleton key={i} className="h-12" />
            ))}
          </div>
        ) : list.isError ? (
          <ErrorFallback message={t('global:error.assignablesLoading')} onRetry={() => void list.refetch()} />
        ) : people.length === 0 ? (
          <EmptyState>{t('communities.share.empty')}</EmptyState>
        ) : (
          <ul className="divide-y">
            {people.map((a) => (
              <AssignableRow key={a.id} a={a} community={community} sel={sel} roles={roleNames} onChoose={(r) => setSel((s) => chooseRow(s, a.id, r))} onReset={() => setSel((s) => resetRow(s, a.id))} invite={inviteOne} />
            ))}
          </ul>
        )}
        {list.hasNextPage && (
          <Button variant="ghost" className="mt-2 w-full" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {list.isFetchingNextPage ? t('communities.share.loading') : t('communities.share.more')}
          </Button>
        )}
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          {t('communities.share.cancel')}
        </Button>
        <Button onClick={() => setConfirming(true)} disabled={!hasSelection(sel) || share.isPending} data-testid="share-save">
          {share.isPending ? t('communities.share.saving') : t('communities.share.save')}
        </Button>
      </DialogFooter>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent role="alertdialog" data-testid="share-confirm">
          <DialogHeader>
            <DialogTitle>{t('communities.share.confirmTitle')}</DialogTitle>
            <DialogDescription>{t('communities.share.confirmBody', { count })}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              {t('communities.share.cancel')}
            </Button>
            <Button onClick={save} disabled={share.isPending}>
              {share.isPending ? t('communities.share.saving') : t('communities.share.confirm')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      {modes.length > 0 && <InviteMembers community={community} open={inviting} onOpenChange={setInviting} />}
    </>
  )
}

type T = ReturnType<typeof useTranslation>['t']
const choiceName = (r: Choice, roles: CommunityRole[], t: T) => (r === null ? t('communities.share.noAccess') : (roles.find((x) => x.id === r)?.name ?? r))

function AssignableRow({
  a,
  community,
  sel,
  roles,
  onChoose,
  onReset,
  invite,
}: {
  a: CommunityAssignable
  community: Community
  sel: ShareSelection
  roles: CommunityRole[]
  onChoose: (r: Choice) => void
  onReset: () => void
  invite: ReturnType<typeof useInvite>
}) {
  const { t } = useTranslation()
  const role = shownRole(sel, a)
  return (
    <li className="flex items-center gap-3 py-2" data-testid="assignable-row">
      <PersonAvatar person={a} className="size-9" />
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 truncate text-sm font-medium">
          {a.firstName} {a.lastName}
          {a.isMe && <Badge variant="secondary">{t('communities.share.you')}</Badge>}
          <InvitationBadge status={a.assignmentStatus} />
        </p>
        <p className="truncate text-xs text-muted-foreground">{a.email}</p>
      </div>
      {/* A member without an account: sent an invitation at once (not with Save). */}
      <InviteButton person={{ ...a, status: a.assignmentStatus }} invite={invite} />
      {/* Admins never pay: complimentary access is for the members of a paid community. */}
      {isPaid(community) && !a.isMe && a.assignmentStatus !== null && a.role?.id !== 'admin' && (
        <ComplimentarySwitch communityId={community.id} a={a} />
      )}
      {a.isMe ? (
        // The user's own row shows their role and no menu: no one changes their own access.
        <span className="text-sm text-muted-foreground">{choiceName(role, roles, t)}</span>
      ) : (
        <RoleMenu label={choiceName(role, roles, t)} roles={roles} chosen={isChosen(sel, a.id)} onChoose={onChoose} onReset={onReset} name={`${a.firstName} ${a.lastName}`} />
      )}
    </li>
  )
}

/** isPaid: a community members pay for (spec 000 §2.6). */
const isPaid = (c: Community) => !c.isFree && c.price > 0

/**
 * ComplimentarySwitch gives or takes a member's complimentary access at
 * once (not with Save): the member is spared the community's payment.
 */
function ComplimentarySwitch({ communityId, a }: { communityId: string; a: CommunityAssignable }) {
  const { t } = useTranslation()
  const set = useSetCommunityComplimentary(communityId, a.id)
  const id = `complimentary-${a.id}`
  return (
    <div className="flex items-center gap-2">
      <Switch
        id={id}
        checked={set.isPending ? set.variables : a.isComplimentary}
        disabled={set.isPending}
        onCheckedChange={(given) => set.mutate(given)}
        aria-label={t('communities.share.complimentaryFor', { name: `${a.firstName} ${a.lastName}` })}
      />
      <label htmlFor={id} className="text-xs text-muted-foreground" aria-hidden>
        {t('communities.share.complimentary')}
      </label>
    </div>
  )
}

function RoleMenu({
  label,
  roles,
  chosen,
  onChoose,
  onReset,
  name,
  testId,
}: {
  label: string
  roles: CommunityRole[]
  chosen: boolean
  onChoose: (r: Choice) => void
  onReset: () => void
  name?: string
  testId?: string
}) {
  const { t } = useTranslation()
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant={chosen ? 'secondary' : 'ghost'}
          size="sm"
          aria-label={name ? t('communities.share.inviteAsFor', { name, role: label }) : undefined}
          data-testid={testId}
        >
          {label}
          <ChevronDown aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel className="text-xs text-muted-foreground">{t('communities.share.inviteAs')}</DropdownMenuLabel>
        {roles.map((r) => (
          <DropdownMenuItem key={r.id} onSelect={() => onChoose(r.id)}>
            {r.name}
          </DropdownMenuItem>
        ))}
        <DropdownMenuItem onSelect={() => onChoose(null)}>{t('communities.share.remove')}</DropdownMenuItem>
        {chosen && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={onReset}>{t('communities.share.reset')}</DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
