import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { useAssignables, type Assignable } from '../../api/get-assignables'
import { canConfirm, stage, UNASSIGNED_PAGE_SIZE, unstage, type Staged, type StagedPerson } from '../../hooks/access-rules'
import { fullName, MemberAvatar } from '../member-avatar'
import { Pager, PeopleList, SearchBox } from './people-list'

type NewRole = 'member' | 'admin'

export const personOf = (a: Assignable): StagedPerson => ({ id: a.id, firstName: a.firstName, lastName: a.lastName, email: a.email, userId: a.userId })

/**
 * CommunityStep gives access to members of the forum's community who are
 * not in the forum yet: as Members (role member) or Moderators (role admin,
 * spec 001 §6). Its Confirm waits until someone is staged (spec 001 §5).
 */
export function CommunityStep({
  seriesId,
  staged,
  onStaged,
  onBack,
  onNext,
}: {
  seriesId: string
  staged: Staged
  onStaged: (s: Staged) => void
  onBack: () => void
  onNext: () => void
}) {
  const { t } = useTranslation()
  const [keyword, setKeyword] = useState('')
  const [page, setPage] = useState(1)
  const debounced = useDebouncedValue(keyword.trim(), 250)
  const q = useAssignables(seriesId, { page, pageSize: UNASSIGNED_PAGE_SIZE, keyword: debounced || undefined, isAssigned: false })
  const first = staged.values().next().value
  const [role, setRole] = useState<NewRole>(first?.next === 'admin' ? 'admin' : 'member')

  const toggle = (a: Assignable, on: boolean) => onStaged(on ? stage(staged, personOf(a), null, role) : unstage(staged, a.id))
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
      <SearchBox
        value={keyword}
        onChange={(v) => {
          setKeyword(v)
          setPage(1)
        }}
      />
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
