import { useTranslation } from 'react-i18next'
import { Switch } from '@/components/ui/switch'
import { useMyStatus } from '../api/get-status'
import { useSetStatus } from '../api/set-status'

/** DoNotDisturbToggle shows and chooses do-not-disturb or auto (GET and PUT /api/users/me/status); peers see it live. */
export function DoNotDisturbToggle() {
  const { t } = useTranslation()
  const chosen = useMyStatus()
  const set = useSetStatus()
  return (
    <label className="flex items-center gap-2 text-xs text-muted-foreground">
      {t('chat.doNotDisturb')}
      <Switch
        checked={chosen.data?.status === 'do-not-disturb'}
        disabled={!chosen.isSuccess || set.isPending}
        onCheckedChange={(next) => set.mutate(next ? 'do-not-disturb' : 'auto')}
        aria-label={t('chat.doNotDisturb')}
      />
    </label>
  )
}
