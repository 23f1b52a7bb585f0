import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Search, UserX } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import type { Assignable } from '../../api/get-assignables'

// The pieces both access lists share: the search box, the list states with
// the spec's watermark, and the pager.

export function SearchBox({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation()
  return (
    <div className="relative">
      <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" />
      <Input
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={t('forum.access.search')}
        aria-label={t('forum.access.searchLabel')}
        className="pl-8"
        maxLength={200}
      />
    </div>
  )
}

/** PeopleList renders a page of assignables, or its loading, error or empty state. */
export function PeopleList({
  query,
  label,
  children,
}: {
  query: { isPending: boolean; isError: boolean; data?: { results: Assignable[] }; refetch: () => unknown }
  label: string
  children: (a: Assignable) => ReactNode
}) {
  const { t } = useTranslation()
  if (query.isPending)
    return (
      <div className="grid gap-2" aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-12" />
        ))}
      </div>
    )
  if (query.isError || !query.data)
    return <ErrorFallback message={t('global:error.assignablesLoading')} onRetry={() => void query.refetch()} />
  if (query.data.results.length === 0)
    return (
      <EmptyState icon={<UserX />} className="py-8">
        <span data-testid="not-found-watermark">{t('forum.access.notFound')}</span>
      </EmptyState>
    )
  return (
    <ul className="grid gap-1" aria-label={label}>
      {query.data.results.map(children)}
    </ul>
  )
}

export function Pager({ page, total, pageSize, onPage }: { page: number; total: number; pageSize: number; onPage: (p: number) => void }) {
  const { t } = useTranslation()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  if (pages <= 1) return null
  return (
    <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
      <Button variant="outline" size="sm" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        {t('forum.access.previous')}
      </Button>
      <span>{t('forum.access.page', { page, pages })}</span>
      <Button variant="outline" size="sm" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        {t('forum.access.nextPage')}
      </Button>
    </div>
  )
}
