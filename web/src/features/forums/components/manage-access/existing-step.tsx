import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { InvitationBadge, InviteButton, useInvite } from '@/components/invitation-status'
import { Button } from '@/components/ui/button'
import { Switch } from '@/components/ui/switch'
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { forumPeople, inviteToForum } from '../../api/invite-to-forum'
import { useAssignables, type Assignable } from '../../api/get-assignables'
import { useAdminCount } from '../../api/count-admins'
import { useForumAdmins } from '../../api/get-forum-members'
import type { Forum } from '../../api/get-forum'
import { useSetForumComplimentary } from '../../api/set-forum-complimentary'
import {
  canConfirm,
  EXISTING_PAGE_SIZE,
  roleMenu,
  roleOf,
  showMemberSearch,
  stage,
  toStagedState,
  type AssignableRole,
  type Staged,
  type StagedRole,
} from '../../hooks/access-rules'
import { AccessNotice } from '../access-notice'
import { fullName, MemberAvatar } from '@/components/member-avatar'
import { personOf } from './community-step'
import { Pager, PeopleList, SearchBox } from './people-list'

/**
 * ExistingStep changes the roles of the forum's members, or removes them
 * (spec 001 §2, §4, §6): ten a page, with a search box once there are more
 * than ten. Each change is staged; Confirm waits until some role differs.
 */
export function ExistingStep({
  forum,
  staged,
  onStaged,
  onBack,
  onNext,
}: {
  forum: Forum
  staged: Staged
  onStaged: (s: Staged) => void
  onBack: () => void
  onNext: () => void
}) {
  const { t } = useTranslation()
  const me = useCurrentUser()
  const [keyword, setKeyword] = useState('')
  const [page, setPage] = useState(1)
  const debounced = useDebouncedValue(keyword.trim(), 250)
  // The unfiltered first page gives the number of assigned members, which
  // decides whether the search box shows.
  const all = useAssignables(forum.id, { page: 1, pageSize: EXISTING_PAGE_SIZE, isAssigned: true })
  const q = useAssignables(forum.id, { page, pageSize: EXISTING_PAGE_SIZE, keyword: debounced || undefined, isAssigned: true })
  const admins = useForumAdmins(forum.id)
  const adminCount = useAdminCount(forum.id, toStagedState(staged), true)
  const meIsForumAdmin = !!admins.data?.results.some((a) => a.userId === me?.user.id)
  // A row's invitation reads the lists again: its label turns to Invited.
  const invite = useInvite((ids) => inviteToForum(forum.id, ids), forumPeople(forum.id))

  const original = (a: Assignable): StagedRole => a.role
  const onRole = (a: Assignable, value: string) => {
    const next: StagedRole = value === 'remove' ? null : (value as AssignableRole)
    onStaged(stage(staged, personOf(a), original(a), next))
  }

  return (
    <div className="grid gap-4" data-testid="existing-step">
      <DialogHeader>
        <DialogTitle>{t('forum.access.existing.title')}</DialogTitle>
        <DialogDescription>{t('forum.access.existing.description')}</DialogDescription>
      </DialogHeader>
      {forum.exclusivity === 'open' && <AccessNotice />}
      {showMemberSearch(all.data?.total) && (
        <SearchBox
          value={keyword}
          onChange={(v) => {
            setKeyword(v)
            setPage(1)
          }}
        />
      )}
      <div className="max-h-[45dvh] overflow-y-auto">
        <PeopleList query={q} label={t('forum.access.existing.title')}>
          {(a) => {
            const current = roleOf(staged, a.id, original(a))
            const menu = roleMenu({
              member: a,
              current,
              meUserId: me?.user.id,
              meIsForumAdmin,
              // Until the server has answered, nobody is known to be the last admin.
              otherAdmins: adminCount.data?.selfExclusiveAdminSet,
              exclusivity: forum.exclusivity,
            })
            const changed = staged.has(a.id)
            const selectId = `role-${a.id}`
            return (
              <li
                key={a.id}
                className={cn('flex flex-wrap items-center gap-3 rounded-md px-2 py-2', changed && 'bg-accent/60')}
                data-testid="existing-row"
              >
                <MemberAvatar person={a} isExpert={a.isExpert} />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium">
                    {fullName(a)}
                    {changed && <span className="ml-2 text-xs font-normal text-muted-foreground">{t('forum.access.existing.changed')}</span>}
                    <span className="ml-2">
                      <InvitationBadge status={a.status} />
                    </span>
                  </span>
                  <span className="block truncate text-xs text-muted-foreground">{a.email}</span>
                  {menu.kind === 'menu' && menu.lastAdmin && (
                    <span className="block text-xs text-muted-foreground">{t('forum.access.existing.lastAdmin')}</span>
                  )}
                </span>
                {/* A member without an account: sent an invitation at once (not with Confirm). */}
                <InviteButton person={a} invite={invite} />
                {/* Admins never pay: complimentary access is for the members of a paid forum. */}
                {isPaid(forum) && menu.kind !== 'self' && !a.role?.startsWith('admin') && <ComplimentarySwitch forumId={forum.id} a={a} />}
                {menu.kind === 'self' ? (
                  <span className="text-sm text-muted-foreground" data-testid="own-row">
                    {t(`forum.access.roles.${a.role ?? 'member'}`)} · {t('forum.access.existing.you')}
                  </span>
                ) : (
                  <>
                    <label htmlFor={selectId} className="sr-only">
                      {t('forum.access.existing.roleOf', { name: fullName(a) })}
                    </label>
                    <select
                      id={selectId}
                      value={current ?? 'remove'}
                      onChange={(e) => onRole(a, e.target.value)}
                      className="h-8 rounded-md border border-input bg-background px-2 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      {menu.options.map((o) => (
                        <option key={o} value={o}>
                          {t(`forum.access.roles.${o}`)}
                        </option>
                      ))}
                    </select>
                  </>
                )}
              </li>
            )
          }}
        </PeopleList>
      </div>
      {q.data && <Pager page={page} total={q.data.total} pageSize={EXISTING_PAGE_SIZE} onPage={setPage} />}
      <DialogFooter className="items-center">
        <span className="mr-auto text-sm text-muted-foreground" aria-live="polite">
          {staged.size > 0 && t('forum.access.existing.changes', { count: staged.size })}
        </span>
        <Button variant="outline" onClick={onBack}>
          {t('forum.access.back')}
        </Button>
        <Button onClick={onNext} disabled={!canConfirm(staged)}>
          {t('forum.access.confirm')}
        </Button>
      </DialogFooter>
    </div>
  )
}

/** isPaid: a forum its members pay for (spec 000 §2.6). */
const isPaid = (f: Forum) => !f.isFree && f.price > 0

/**
 * ComplimentarySwitch gives or takes a member's complimentary access at
 * once (not with Confirm): the member is spared the forum's payment.
 */
function ComplimentarySwitch({ forumId, a }: { forumId: string; a: Assignable }) {
  const { t } = useTranslation()
  const set = useSetForumComplimentary(forumId, a.id)
  const id = `complimentary-${a.id}`
  return (
    <span className="flex items-center gap-2">
      <Switch
        id={id}
        checked={set.isPending ? set.variables : a.isComplimentary}
        disabled={set.isPending}
        onCheckedChange={(given) => set.mutate(given)}
        aria-label={t('forum.access.existing.complimentaryFor', { name: fullName(a) })}
      />
      <label htmlFor={id} className="text-xs text-muted-foreground" aria-hidden>
        {t('forum.access.existing.complimentary')}
      </label>
    </span>
  )
}
