import { useTranslation } from 'react-i18next'
import { ChevronLeft, ChevronRight } from 'lucide-react'
import { Button } from '@/components/ui/button'

/** Pager moves between the pages of a list of total items. */
export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (p: number) => void }) {
  const { t } = useTranslation()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  if (pages <= 1) return null
  return (
    <nav className="mt-3 flex items-center justify-end gap-2 text-sm" aria-label={t('accounts.pages')}>
      <Button variant="outline" size="icon" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label={t('accounts.previous')}>
        <ChevronLeft aria-hidden />
      </Button>
      <span>{t('accounts.pageOf', { page, pages })}</span>
      <Button variant="outline" size="icon" disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label={t('accounts.next')}>
        <ChevronRight aria-hidden />
      </Button>
    </nav>
  )
}
