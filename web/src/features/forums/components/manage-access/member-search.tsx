import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Check, Loader2, Search, UserPlus, UserX } from 'lucide-react'
import { PersonAvatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { cn } from '@/lib/utils'
import { MEMBER_SEARCH_LIMIT, useMemberSearch, type MemberMatch } from '../../api/search-members'

export type MemberSearchProps = {
  communityId: string
  /** What is typed; the owner keeps it (an empty box may show something else). */
  value: string
  onChange: (value: string) => void
  /** Picking a match. */
  onPick: (match: MemberMatch) => void
  /** Whether a match is already picked (shown pressed). */
  isPicked?: (match: MemberMatch) => boolean
  /** Given, a search that finds nobody offers "Add new member" with what was typed. */
  onAddNew?: (typed: string) => void
  label?: string
  placeholder?: string
  /** Turns a busy pick (a match being checked) into a spinner. */
  busyId?: string
  className?: string
}

/**
 * MemberSearch is the member search of the share and access dialogs (spec
 * 000 §2.7): up to 5 members of the community matching the typed name
 * (debounced 250 ms; the server allows a typo), a line saying when more
 * match, and, when none does, a no-results message with an "Add new member"
 * button (when the owner allows it) that opens the new member form.
 */
export function MemberSearch({ communityId, value, onChange, onPick, isPicked, onAddNew, label, placeholder, busyId, className }: MemberSearchProps) {
  const { t } = useTranslation()
  const listId = useId()
  const q = useDebouncedValue(value.trim(), 250)
  const search = useMemberSearch(communityId, q)
  const shown = q ? search.data : undefined
  const results = shown?.results ?? []
  const more = shown ? shown.total - results.length : 0
  return (
    <div className={cn('grid gap-2', className)} data-testid="member-search">
      <div className="relative">
        <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" />
        <Input
          type="search"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder ?? t('memberSearch.placeholder')}
          aria-label={label ?? t('memberSearch.label')}
          aria-controls={shown ? listId : undefined}
          className="pl-8"
          maxLength={100}
          autoComplete="off"
        />
      </div>
      {q && (
        <div id={listId} aria-live="polite" aria-busy={search.isFetching} className="grid gap-1">
          {search.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {t('memberSearch.failed')}
            </p>
          ) : !shown ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Loader2 aria-hidden className="size-4 animate-spin" />
              {t('memberSearch.searching')}
            </p>
          ) : results.length === 0 ? (
            <div
              className="flex flex-wrap items-center gap-3 rounded-md border border-dashed p-3 text-sm text-muted-foreground"
              data-testid="member-search-none"
            >
              <UserX aria-hidden className="size-5" />
              <span className="flex-1">{t('memberSearch.none', { q: value.trim() })}</span>
              {onAddNew && (
                <Button type="button" variant="outline" size="sm" onClick={() => onAddNew(value.trim())}>
                  <UserPlus aria-hidden />
                  {t('memberSearch.addNew')}
                </Button>
              )}
            </div>
          ) : (
            <>
              <ul className="grid gap-1" aria-label={t('memberSearch.results')}>
                {results.slice(0, MEMBER_SEARCH_LIMIT).map((m) => {
                  const picked = isPicked?.(m) ?? false
                  const name = `${m.firstName} ${m.lastName}`.trim()
                  const about = [m.jobTitle, m.company].filter(Boolean).join(', ')
                  return (
                    <li key={m.id}>
                      <button
                        type="button"
                        onClick={() => onPick(m)}
                        aria-pressed={isPicked ? picked : undefined}
                        disabled={busyId === m.id}
                        className={cn(
                          'flex w-full items-center gap-3 rounded-md px-2 py-2 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                          picked && 'bg-accent',
                        )}
                        data-testid="member-match"
                      >
                        <PersonAvatar person={m} className="size-8" />
                        <span className="min-w-0 flex-1">
                          <span className="block truncate text-sm font-medium">{name}</span>
                          {about && <span className="block truncate text-xs text-muted-foreground">{about}</span>}
                        </span>
                        {busyId === m.id ? (
                          <Loader2 aria-hidden className="size-4 animate-spin text-muted-foreground" />
                        ) : (
                          picked && <Check aria-hidden className="size-4 text-primary" />
                        )}
                      </button>
                    </li>
                  )
                })}
              </ul>
              {more > 0 && (
                <p className="px-2 text-xs text-muted-foreground" data-testid="member-search-more">
                  {t('memberSearch.more', { count: more })}
                </p>
              )}
            </>
          )}
        </div>
      )}
    </div>
  )
}
