import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Search, X } from 'lucide-react'
import { PersonAvatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Switch } from '@/components/ui/switch'
import { personName, useForumPeople } from '../api/get-forum-people'
import type { Invitee } from '../lib/form'

/**
 * InviteePicker picks forum members to invite (spec 002 §5): matches of
 * the typed name among the forum's members, leaving out the creator, people
 * without an account and those picked (or already invited); each picked
 * person may be made a moderator.
 */
export function InviteePicker({
  seriesId,
  creatorId,
  value,
  onChange,
  exclude = [],
  label,
  describedBy,
}: {
  seriesId: string
  creatorId: string
  value: Invitee[]
  onChange: (v: Invitee[]) => void
  exclude?: string[]
  label: string
  describedBy?: string
}) {
  const { t } = useTranslation()
  const [q, setQ] = useState('')
  const people = useForumPeople(seriesId)
  const taken = new Set([creatorId, ...exclude, ...value.map((v) => v.userId)])
  const term = q.trim().toLowerCase()
  const matches = term
    ? (people.data?.results ?? []).filter((m) => m.userId && !taken.has(m.userId) && personName(m).toLowerCase().includes(term)).slice(0, 5)
    : []
  return (
    <div className="grid gap-2" data-testid="invitee-picker">
      <div className="relative">
        <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" />
        <Input type="search" value={q} onChange={(e) => setQ(e.target.value)} aria-label={label} aria-describedby={describedBy} className="pl-8" autoComplete="off" />
      </div>
      {matches.length > 0 && (
        <ul className="grid gap-1" aria-label={t('memberSearch.results')}>
          {matches.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                onClick={() => {
                  onChange([...value, { userId: m.userId!, name: personName(m), role: 'member' }])
                  setQ('')
                }}
              >
                <PersonAvatar person={m} className="size-7" />
                {personName(m)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {value.length > 0 && (
        <ul className="grid gap-1" aria-label={t('meetups.form.invitees')} data-testid="invitees">
          {value.map((v) => (
            <li key={v.userId} className="flex items-center gap-2 rounded-md border px-2 py-1 text-sm">
              <span className="min-w-0 flex-1 truncate">{v.name}</span>
              <label className="flex items-center gap-1 text-xs text-muted-foreground">
                <Switch
                  checked={v.role === 'moderator'}
                  onCheckedChange={(on) => onChange(value.map((x) => (x.userId === v.userId ? { ...x, role: on ? 'moderator' : 'member' } : x)))}
                  aria-label={`${t('meetups.form.moderator')}: ${v.name}`}
                />
                {t('meetups.form.moderator')}
              </label>
              <Button type="button" variant="ghost" size="icon" className="size-7" aria-label={t('meetups.form.remove', { name: v.name })} onClick={() => onChange(value.filter((x) => x.userId !== v.userId))}>
                <X aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
