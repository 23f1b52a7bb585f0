import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Switch } from '@/components/ui/switch'
import { useSetStatus, type ChosenStatus } from '../api/set-status'

// The server keeps the member's choice across sessions but has no call
// that reads it back, so this browser remembers the last choice it made.
const KEY = 'agora.doNotDisturb'

/** DoNotDisturbToggle chooses do-not-disturb or auto (PUT /api/users/me/status); peers see it live. */
export function DoNotDisturbToggle() {
  const { t } = useTranslation()
  const [on, setOn] = useState(() => localStorage.getItem(KEY) === 'true')
  const set = useSetStatus()
  const choose = (next: boolean) => {
    const status: ChosenStatus = next ? 'do-not-disturb' : 'auto'
    set.mutate(status, {
      onSuccess: () => {
        localStorage.setItem(KEY, String(next))
        setOn(next)
      },
    })
  }
  return (
    <label className="flex items-center gap-2 text-xs text-muted-foreground">
      {t('chat.doNotDisturb')}
      <Switch checked={on} disabled={set.isPending} onCheckedChange={choose} aria-label={t('chat.doNotDisturb')} />
    </label>
  )
}
