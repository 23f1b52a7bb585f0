import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { MemberSearch } from './member-search'
import type { MemberMatch } from '../../api/search-members'
import { assignablesQuery, useAssignables, type Assignable } from '../../api/get-assignables'
import { canConfirm, stage, UNASSIGNED_PAGE_SIZE, unstage, type Staged, type StagedPerson } from '../../hooks/access-rules'
import { fullName, MemberAvatar } from '@/components/member-avatar'
import { Pager, PeopleList } from './people-list'

type NewRole = 'member' | 'admin'

export const personOf = (a: Assignable): StagedPerson => ({ id: a.id, firstName: a.firstName, lastName: a.lastName, email: a.email, userId: a.userId })

/**
 * CommunityStep gives access to members of the forum's community who are
 * not in the forum yet: as Members (role member) or Moderators (role admin,
 * spec 001 §6). Its Confirm waits until someone is staged (spec 001 §5).
 * People are found with the member search (spec 000 §2.7: by name, a typo
 * allowed; nobody found offers the new member form with the typed name), or
 * picked from the paged list that an empty search box shows.
 */
export function CommunityStep({
  seriesId,
  communityId,
  staged,
  onStaged,
  onAddNew,
  onBack,
  onNext,
}: {
  seriesId: string
  communityId: string
  staged: Staged
  onStaged: (s: Staged) => void
  /** Opens the new individual form with the name typed in the search. */
  onAddNew?: (typed: string) => void
  onBack: () => void
  onNext: () => void
}) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const [typed, setTyped] = useState('')
  const [page, setPage] = useState(1)
  const [checking, setChecking] = useState<string>()
  const [notice, setNotice] = useState<string>()
  const q = useAssignables(seriesId, { page, pageSize: UNASSIGNED_PAGE_SIZE, isAssigned: false })
  const first = staged.values().next().value
  const [role, setRole] = useState<NewRole>(first?.next === 'admin' ? 'admin' : 'member')

  const toggle = (a: Assignable, on: boolean) => onStaged(on ? stage(staged, personOf(a), null, role) : unstage(staged, a.id))

  // A match of the member search is any member of the community: it is
  // staged as the list's checkbox would stage it only when it is among the
  // forum's unassigned people (which also gives its email); someone already
  // in the forum keeps their role here.
  const pick = async (m: MemberMatch) => {
    setNotice(undefined)
    if (staged.has(m.id)) return onStaged(unstage(staged, m.id))
    setChecking(m.id)
    try {
      const keyword = m.lastName || m.firstName
      const found = await queryClient.fetchQuery(assignablesQuery(seriesId, { page: 1, pageSize: UNASSIGNED_PAGE_SIZE, keyword, isAssigned: false }))
      const a = found.results.find((x) => x.id === m.id)
      if (a) onStaged(stage(staged, personOf(a), null, role))
      else setNotice(t('forum.access.individual.alreadyMember', { name: fullName(m) }))
    } catch {
      setNotice(t('global:error.assignablesLoading'))
    } finally {
      setChecking(undefined)
    }
  }
  const changeRole = (r: NewRole) => {
    setRole(r)
    let next: Staged = new Map()
    for (const c of staged.values()) next = stage(next, c.person, null, r)
    onStaged(next)
  }

  return (
    <div className="grid gap-4" data-testid="community-step">
      <DialogHeader>
        <DialogTitle>{t('forum.access.community.title')}</DialogTitle>
        <DialogDescription>{t('forum.access.community.description')}</DialogDescription>
      </DialogHeader>
      <fieldset className="flex flex-wrap items-center gap-4 text-sm">
        <legend className="sr-only">{t('forum.access.community.roleLabel')}</legend>
        <span aria-hidden className="font-medium">
          {t('forum.access.community.roleLabel')}
        </span>
        {(['member', 'admin'] as const).map((r) => (
          <label key={r} className="flex items-center gap-2">
            <input type="radio" name="new-role" value={r} checked={role === r} onChange={() => changeRole(r)} className="size-4 accent-primary" />
            {r === 'member' ? t('forum.access.community.members') : t('forum.access.community.moderators')}
          </label>
        ))}
      </fieldset>
      <MemberSearch
        communityId={communityId}
        value={typed}
        onChange={(v) => {
          setTyped(v)
          setNotice(undefined)
        }}
        onPick={(m) => void pick(m)}
        isPicked={(m) => staged.has(m.id)}
        busyId={checking}
        onAddNew={onAddNew}
      />
      {notice && (
        <p role="status" className="text-sm text-muted-foreground" data-testid="member-search-notice">
          {notice}
        </p>
      )}
      {!typed.trim() && (
        <>
          <div className="max-h-[45dvh] overflow-y-auto">
            <PeopleList query={q} label={t('forum.access.community.title')}>
              {(a) => (
                <li key={a.id}>
                  <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-2 hover:bg-accent" data-testid="assignable-row">
                    <input
                      type="checkbox"
                      checked={staged.has(a.id)}
                      onChange={(e) => toggle(a, e.target.checked)}
                      aria-label={t('forum.access.community.select', { name: fullName(a) })}
                      className="size-4 accent-primary"
                    />
                    <MemberAvatar person={a} isExpert={a.isExpert} />
                    <span className="min-w-0">
                      <span className="block truncate text-sm font-medium">{fullName(a)}</span>
                      <span className="block truncate text-xs text-muted-foreground">{a.email}</span>
                    </span>
                  </label>
                </li>
              )}
            </PeopleList>
          </div>
          {q.data && <Pager page={page} total={q.data.total} pageSize={UNASSIGNED_PAGE_SIZE} onPage={setPage} />}
        </>
      )}
      <DialogFooter className="items-center">
        <span className="mr-auto text-sm text-muted-foreground" aria-live="polite">
          {staged.size > 0 && t('forum.access.community.selected', { count: staged.size })}
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
