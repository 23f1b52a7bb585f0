import { useTranslation } from 'react-i18next'
import { Lock } from 'lucide-react'

/** AccessNotice is the 'Access Can't Be Changed' notice of an open forum (spec 001 §2, §4). */
export function AccessNotice() {
  const { t } = useTranslation()
  return (
    <div role="note" className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100" data-testid="access-notice">
      <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div>
        <p className="font-semibold">{t('forum.access.cantChangeTitle')}</p>
        <p>{t('forum.access.cantChangeBody')}</p>
      </div>
    </div>
  )
}
