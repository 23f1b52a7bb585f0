import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Loader2 } from 'lucide-react'
import type { Schemas } from '@/api/client'
import { Button } from '@/components/ui/button'
import { Switch } from '@/components/ui/switch'
import { toast } from '@/components/ui/toast'
import { usePersonalization, useUpdatePersonalization } from '@/lib/personalization'
import { currentSubscription, pushSupported, turnOffPush, turnOnPush } from '@/lib/push'
import { FREQUENCIES, settingsOf, timeZones, type Frequency, type NotificationSettings, type SwitchKey } from '../lib/notification-settings'

/** ROWS are the table's rows: what, its e-mail switch (comments have none: they are in the digest) and its browser one. */
const ROWS: [row: 'mentions' | 'privateChats' | 'comments', email: SwitchKey | null, push: SwitchKey][] = [
  ['mentions', 'notifications.email.mentions', 'notifications.push.mentions'],
  ['privateChats', 'notifications.email.privateChats', 'notifications.push.privateChats'],
  ['comments', null, 'notifications.push.comments'],
]

const selectClass =
  'h-9 rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50'

/**
 * NotificationSettings is the profile page's section of the member's
 * notification settings (kept in their personalization, saved as each one
 * changes): e-mail and browser notifications of mentions and private
 * messages, browser notifications of comments, the digest's frequency,
 * hour and weekday, the insights digest (for forum admins), the time zone
 * of the hour; and turning browser notifications on in this browser.
 */
export function NotificationSettings({ userId, forumAdmin }: { userId: string; forumAdmin: boolean }) {
  const { t } = useTranslation()
  // The one personalization cache, which the live update refreshes: after
  // an unsubscribe link in a mail, or a change in another tab, the switches
  // show the stored values.
  const stored = usePersonalization(userId)
  const save = useUpdatePersonalization(userId)
  const s = settingsOf(stored.data)
  const set = (patch: Partial<NotificationSettings>) =>
    save.mutate(patch as Schemas['Personalization'], { onError: () => toast({ title: t('notificationSettings.saveFailed'), variant: 'destructive' }) })
  const busy = stored.isPending || save.isPending

  const toggle = (k: SwitchKey) => (
    <Switch aria-label={t(`notificationSettings.switches.${k}`)} checked={s[k]} disabled={busy} onCheckedChange={(v) => set({ [k]: v })} />
  )
  const frequency = (k: 'notifications.digest.frequency' | 'notifications.insights.frequency', label: string) => (
    <Row label={label}>
      <select aria-label={label} className={selectClass} value={s[k]} disabled={busy} onChange={(e) => set({ [k]: e.target.value as Frequency })}>
        {FREQUENCIES.map((f) => (
          <option key={f} value={f}>
            {t(`notificationSettings.frequency.${f}`)}
          </option>
        ))}
      </select>
    </Row>
  )
  const weekdays = t('notificationSettings.weekdays', { returnObjects: true }) as readonly string[]

  return (
    <section className="mt-6 grid gap-4 rounded-xl border bg-card p-6" aria-labelledby="notification-settings-title" data-testid="notification-settings">
      <div>
        <h2 id="notification-settings-title" className="text-lg font-semibold">
          {t('notificationSettings.title')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('notificationSettings.intro')}</p>
      </div>
      {stored.isError && (
        <p role="alert" className="text-sm text-destructive">
          {t('notificationSettings.loadFailed')}
        </p>
      )}
      <table className="w-full max-w-lg text-sm">
        <thead>
          <tr className="text-left text-muted-foreground">
            <th className="py-1 font-normal" />
            <th className="py-1 font-normal">{t('notificationSettings.email')}</th>
            <th className="py-1 font-normal">{t('notificationSettings.push')}</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map(([row, email, push]) => (
            <tr key={row}>
              <th scope="row" className="py-2 text-left font-medium">
                {t(`notificationSettings.rows.${row}`)}
              </th>
              <td>{email && toggle(email)}</td>
              <td>{toggle(push)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="grid gap-3">
        {frequency('notifications.digest.frequency', t('notificationSettings.digest'))}
        {s['notifications.digest.frequency'] !== 'off' && (
          <div className="flex flex-wrap gap-3 pl-0 sm:pl-4">
            {s['notifications.digest.frequency'] === 'weekly' && (
              <Row label={t('notificationSettings.weekday')}>
                <select
                  aria-label={t('notificationSettings.weekday')}
                  className={selectClass}
                  value={s['notifications.digest.weekday']}
                  disabled={busy}
                  onChange={(e) => set({ 'notifications.digest.weekday': Number(e.target.value) })}
                >
                  {weekdays.map((d, i) => (
                    <option key={d} value={i}>
                      {d}
                    </option>
                  ))}
                </select>
              </Row>
            )}
            <Row label={t('notificationSettings.hour')}>
              <select
                aria-label={t('notificationSettings.hour')}
                className={selectClass}
                value={s['notifications.digest.hour']}
                disabled={busy}
                onChange={(e) => set({ 'notifications.digest.hour': Number(e.target.value) })}
              >
                {Array.from({ length: 24 }, (_, h) => (
                  <option key={h} value={h}>
                    {`${String(h).padStart(2, '0')}:00`}
                  </option>
                ))}
              </select>
            </Row>
          </div>
        )}
        {forumAdmin && frequency('notifications.insights.frequency', t('notificationSettings.insights'))}
        <Row label={t('notificationSettings.timezone')}>
          <select
            aria-label={t('notificationSettings.timezone')}
            className={selectClass}
            value={s['notifications.timezone']}
            disabled={busy}
            onChange={(e) => set({ 'notifications.timezone': e.target.value })}
          >
            {timeZones(s['notifications.timezone']).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </Row>
      </div>
      <BrowserNotifications />
    </section>
  )
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <span className="min-w-40 font-medium">{label}</span>
      {children}
    </div>
  )
}

type BrowserState = 'checking' | 'on' | 'off' | 'denied' | 'unsupported'

/** BrowserNotifications turns web push on (or off) in this browser. */
function BrowserNotifications() {
  const { t } = useTranslation()
  const [state, setState] = useState<BrowserState>(() => (pushSupported() ? 'checking' : 'unsupported'))
  const [working, setWorking] = useState(false)
  useEffect(() => {
    if (state !== 'checking') return
    let live = true
    currentSubscription()
      .then((sub) => live && setState(sub ? 'on' : Notification.permission === 'denied' ? 'denied' : 'off'))
      .catch(() => live && setState('off'))
    return () => {
      live = false
    }
  }, [state])
  const turnOn = async () => {
    setWorking(true)
    try {
      const outcome = await turnOnPush()
      setState(outcome)
    } catch (e) {
      console.warn('push subscribe', e)
      toast({ title: t('notificationSettings.browser.failed'), variant: 'destructive' })
    } finally {
      setWorking(false)
    }
  }
  const turnOff = async () => {
    setWorking(true)
    await turnOffPush()
    setWorking(false)
    setState('off')
  }
  return (
    <div className="grid gap-2 border-t pt-4">
      <h3 className="text-sm font-semibold">{t('notificationSettings.browser.title')}</h3>
      {state === 'unsupported' ? (
        <p className="text-sm text-muted-foreground">{t('notificationSettings.browser.unsupported')}</p>
      ) : (
        <>
          {state !== 'checking' && (
            <p className="text-sm text-muted-foreground" role="status">
              {t(`notificationSettings.browser.${state}`)}
            </p>
          )}
          <div>
            {state === 'on' ? (
              <Button type="button" variant="outline" disabled={working} onClick={turnOff}>
                {working && <Loader2 className="animate-spin" aria-hidden />}
                {t('notificationSettings.browser.turnOff')}
              </Button>
            ) : (
              <Button type="button" disabled={working || state === 'checking'} onClick={turnOn}>
                {working && <Loader2 className="animate-spin" aria-hidden />}
                {t('notificationSettings.browser.turnOn')}
              </Button>
            )}
          </div>
        </>
      )}
    </div>
  )
}
