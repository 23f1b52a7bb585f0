import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useCurrentUser } from '@/lib/session-context'
import type { CreatorAs } from './use-composer'

/** AskAs chooses who a question is asked as: the member, by name, or anonymous (spec 001 §3). */
export function AskAs({ value, onChange }: { value: CreatorAs; onChange: (value: CreatorAs) => void }) {
  const { t } = useTranslation()
  const user = useCurrentUser()?.user
  const hintId = useId()
  return (
    <fieldset className="grid gap-1.5" aria-describedby={hintId}>
      <legend className="mb-1.5 text-sm font-medium">{t('composer.askAs')}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        <Choice name={`as-${hintId}`} checked={value === 'author'} onChange={() => onChange('author')}>
          {t('composer.asAuthor')}
          {user && <span className="text-muted-foreground"> ({`${user.firstName} ${user.lastName}`.trim()})</span>}
        </Choice>
        <Choice name={`as-${hintId}`} checked={value === 'anonymous'} onChange={() => onChange('anonymous')}>
          {t('composer.asAnonymous')}
        </Choice>
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        {t('composer.anonymousHint')}
      </p>
    </fieldset>
  )
}

function Choice({ name, checked, onChange, children }: { name: string; checked: boolean; onChange: () => void; children: ReactNode }) {
  return (
    <label className="flex cursor-pointer items-center gap-2 text-sm">
      <input type="radio" name={name} checked={checked} onChange={onChange} className="size-4 accent-primary" />
      <span>{children}</span>
    </label>
  )
}
