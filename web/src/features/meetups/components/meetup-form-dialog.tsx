import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Loader2, X } from 'lucide-react'
import { isApiError } from '@/api/client'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { useCurrentUser } from '@/lib/session-context'
import { useCreateMeeting } from '../api/create-meetup'
import { updateMeeting } from '../api/update-meetup'
import { useMeetingAction } from '../hooks/use-meeting-action'
import { personName, useForumPeople } from '../api/get-forum-people'
import { DURATIONS, type Duration, type Meeting } from '../api/types'
import {
  breakoutError,
  DEFAULT_SEATS,
  emptyForm,
  formOf,
  LIMITS,
  registeredIn,
  registeredOf,
  serverErrors,
  startNow,
  toBody,
  validate,
  type FormErrors,
  type FormValues,
} from '../lib/form'
import { zoneName } from '../lib/time'
import { InviteePicker } from './invitee-picker'

export type MeetupFormDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  series: { id: string; name: string }
  /** The member may schedule open Meet Ups (canDoOpenMeetups: the forum's admins). */
  canOpen: boolean
  /** The Meet Up edited; none schedules a new one. */
  meeting?: Meeting
}

/**
 * MeetupFormDialog schedules or edits a Meet Up (spec 002 §2, §5): name,
 * agenda, start (in the member's time zone, which it names), duration,
 * open or private (chosen only by those who may, and locked when editing),
 * seats when open (DEFAULT_SEATS until changed), invitees and breakout
 * rooms. A new open Meet Up asks first, saying how many members are
 * e-mailed. What the server refuses is said at its field, in the member's
 * words.
 */
export function MeetupFormDialog(props: MeetupFormDialogProps) {
  const { t } = useTranslation()
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{t(props.meeting ? 'meetups.form.editTitle' : 'meetups.form.createTitle')}</DialogTitle>
          <DialogDescription>{t('meetups.form.description')}</DialogDescription>
        </DialogHeader>
        {props.open && <MeetupForm {...props} />}
      </DialogContent>
    </Dialog>
  )
}

function MeetupForm({ onOpenChange, series, canOpen, meeting }: MeetupFormDialogProps) {
  const { t } = useTranslation()
  const me = useCurrentUser()?.user.id ?? ''
  const people = useForumPeople(series.id)
  const nameOf = (userId: string) => {
    const p = people.data?.results.find((m) => m.userId === userId)
    return p ? personName(p) : userId
  }
  const [v, setV] = useState<FormValues>(() => (meeting ? formOf(meeting, nameOf) : emptyForm(canOpen)))
  // A new Meet Up's start left at its default is "now" when it is sent,
  // not when the form opened: filling the form in takes minutes.
  const [startChosen, setStartChosen] = useState(!!meeting)
  const [shown, setShown] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [failed, setFailed] = useState<string>()
  // The server's refusal, at its fields, until the member changes the form.
  const [refused, setRefused] = useState<FormErrors>({})
  const [registered, setRegistered] = useState(() => (meeting ? registeredOf(meeting) : 0))
  const create = useCreateMeeting(series.id)
  const edit = useMeetingAction((body: ReturnType<typeof toBody>) => updateMeeting(meeting!.roomId, body), { silent: true })
  const pending = create.isPending || edit.isPending
  const current = (): FormValues => (startChosen ? v : { ...v, ...startNow() })
  // Open registration is the member's to choose only on a new Meet Up, and only where they may.
  const offerOpen = canOpen && !meeting
  // The access choice shows to those who may choose it, and on a Meet Up that is open.
  const showAccess = canOpen || !!meeting?.open
  const rules = { keptStart: meeting?.startTime, registered, offerOpen }
  const errors: FormErrors = { ...refused, ...(shown ? validate(current(), rules) : {}) }
  const set = (p: Partial<FormValues>) => {
    setRefused({})
    setV((x) => ({ ...x, ...p }))
  }
  const setStart = (p: Pick<Partial<FormValues>, 'date' | 'time'>) => {
    setStartChosen(true)
    set(p)
  }
  const err = (k: keyof FormErrors) => errors[k] && t(errors[k], { count: registered })
  const ids = { access: useId(), invitees: useId(), breakouts: useId() }

  const send = () => {
    setConfirming(false)
    setFailed(undefined)
    setRefused({})
    const onError = (e: unknown) => {
      console.warn('Meet Up not saved', e)
      const fields = isApiError(e) && e.status === 400 ? e.details?.fields : undefined
      if (fields && Object.keys(fields).length > 0) {
        const r = serverErrors(fields, { offerOpen })
        const n = registeredIn(fields)
        if (n !== undefined) setRegistered(n)
        // A refusal of a field the member does not see is said as a failure.
        if (r.errors.open && !showAccess) delete r.errors.open
        setRefused(r.errors)
        if (r.other || Object.keys(r.errors).length === 0) setFailed(t('meetups.form.failed'))
        return
      }
      setFailed(t(failure(e, !!meeting)))
    }
    const body = toBody(current())
    if (meeting) edit.mutate(body, { onSuccess: () => onOpenChange(false), onError })
    else create.mutate(body, { onSuccess: () => onOpenChange(false), onError })
  }
  const submit = () => {
    setShown(true)
    if (Object.keys(validate(current(), rules)).length > 0) return
    if (!meeting && v.open) setConfirming(true)
    else send()
  }

  return (
    <form
      noValidate
      className="grid gap-4"
      aria-label={t(meeting ? 'meetups.form.editTitle' : 'meetups.form.createTitle')}
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <FormField label={t('meetups.form.name')} error={err('name')}>
        <FieldControl>
          <Input value={v.name} onChange={(e) => set({ name: e.target.value })} maxLength={LIMITS.name + 25} autoFocus />
        </FieldControl>
      </FormField>
      <FormField label={t('meetups.form.agenda')} error={err('agenda')} description={t('meetups.form.agendaHelp')}>
        <FieldControl>
          <Textarea value={v.agenda} onChange={(e) => set({ agenda: e.target.value })} rows={3} />
        </FieldControl>
      </FormField>
      <div className="grid gap-3 sm:grid-cols-3">
        <FormField label={t('meetups.form.startDate')} error={err('start')}>
          <FieldControl>
            <Input type="date" value={v.date} onChange={(e) => setStart({ date: e.target.value })} />
          </FieldControl>
        </FormField>
        <FormField label={t('meetups.form.startTime')} description={t('meetups.form.timeZone', { zone: zoneName(new Date()) })}>
          <FieldControl>
            <Input type="time" value={v.time} onChange={(e) => setStart({ time: e.target.value })} />
          </FieldControl>
        </FormField>
        <FormField label={t('meetups.form.duration')} error={err('duration')}>
          <Select value={String(v.duration)} onValueChange={(d) => set({ duration: Number(d) as Duration })}>
            <FieldControl>
              <SelectTrigger>
                <SelectValue />
              </SelectTrigger>
            </FieldControl>
            <SelectContent>
              {DURATIONS.map((d) => (
                <SelectItem key={d} value={String(d)}>
                  {t('meetups.form.durationOption', { count: d })}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
      </div>

      {showAccess && (
        <fieldset className="grid gap-2" aria-describedby={errors.open ? ids.access : undefined}>
          <legend className="mb-1 text-sm font-medium">{t('meetups.form.access')}</legend>
          {(['private', 'open'] as const).map((k) => (
            <label key={k} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="access"
                className="mt-1"
                checked={v.open === (k === 'open')}
                disabled={!!meeting}
                onChange={() => set({ open: k === 'open', seatCount: k === 'open' ? v.seatCount || String(DEFAULT_SEATS) : '' })}
              />
              <span>
                <span className="font-medium">{t(`meetups.form.${k}`)}</span>
                <span className="block text-xs text-muted-foreground">{t(`meetups.form.${k}Help`)}</span>
              </span>
            </label>
          ))}
          {meeting && <p className="text-xs text-muted-foreground">{t('meetups.form.accessLocked')}</p>}
          {errors.open && (
            <p id={ids.access} role="alert" className="text-sm font-medium text-destructive">
              {err('open')}
            </p>
          )}
        </fieldset>
      )}

      {v.open && (
        <FormField label={t('meetups.form.seatCount')} error={err('seatCount')} description={t('meetups.form.seatCountHelp')}>
          <FieldControl>
            <Input type="number" inputMode="numeric" min={LIMITS.seatsMin} max={LIMITS.seatsMax} value={v.seatCount} onChange={(e) => set({ seatCount: e.target.value })} />
          </FieldControl>
        </FormField>
      )}

      <div className="grid gap-1.5">
        <Label>{t('meetups.form.invitees')}</Label>
        <InviteePicker
          seriesId={series.id}
          creatorId={meeting?.creatorId ?? me}
          value={v.invitees}
          onChange={(invitees) => set({ invitees })}
          label={t('meetups.form.inviteesSearch')}
          describedBy={errors.invitees ? ids.invitees : undefined}
        />
        {errors.invitees && (
          <p id={ids.invitees} role="alert" className="text-sm font-medium text-destructive">
            {err('invitees')}
          </p>
        )}
      </div>

      <BreakoutManager value={v.breakouts} onChange={(breakouts) => set({ breakouts })} refused={err('breakouts') || undefined} />

      {failed && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {failed}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
          {t('meetups.form.cancel')}
        </Button>
        <Button type="submit" disabled={pending}>
          {pending && <Loader2 aria-hidden className="animate-spin" />}
          {pending ? t('meetups.form.saving') : t(meeting ? 'meetups.form.save' : 'meetups.form.create')}
        </Button>
      </DialogFooter>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('meetups.form.confirmTitle')}
        description={t('meetups.form.confirmBody', { memberCount: people.data?.total ?? 0, topicName: series.name })}
        cancelLabel={t('meetups.form.cancel')}
        confirmLabel={t('meetups.form.confirm')}
        destructive={false}
        onConfirm={send}
      />
    </form>
  )
}

/**
 * failure is the words of a refusal that names no field: the member may no
 * longer do it, the Meet Up has ended or is gone, or something else failed.
 */
function failure(e: unknown, editing: boolean): string {
  if (!isApiError(e)) return 'meetups.form.failed'
  if (e.status === 403) return editing ? 'meetups.form.forbiddenEdit' : 'meetups.form.forbidden'
  if (e.status === 409 && e.code === 'meetingEnded') return 'meetups.form.ended'
  if (e.status === 404) return 'meetups.form.gone'
  return 'meetups.form.failed'
}

/**
 * BreakoutManager adds breakout room names by Enter or Add: up to 10,
 * unique, 1 to 50 characters (spec 002 §5); refused is what the server
 * said of the list.
 */
export function BreakoutManager({ value, onChange, refused }: { value: string[]; onChange: (v: string[]) => void; refused?: string }) {
  const { t } = useTranslation()
  const [name, setName] = useState('')
  const [typed, setError] = useState<string>()
  const errorId = useId()
  const error = typed ? t(typed) : refused
  const add = () => {
    const e = breakoutError(value, name)
    setError(e)
    if (e) return
    onChange([...value, name.trim()])
    setName('')
  }
  return (
    <fieldset className="grid gap-2" data-testid="breakout-manager">
      <legend className="mb-1 text-sm font-medium">{t('meetups.form.breakouts')}</legend>
      <div className="flex gap-2">
        <Input
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-label={t('meetups.form.breakoutName')}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? errorId : undefined}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              add()
            }
          }}
        />
        <Button type="button" variant="outline" onClick={add}>
          {t('meetups.form.addBreakout')}
        </Button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={t('meetups.form.breakouts')}>
          {value.map((b) => (
            <li key={b} className="flex items-center gap-1 rounded-full border py-0.5 pl-3 pr-1 text-sm">
              {b}
              <Button type="button" variant="ghost" size="icon" className="size-6" aria-label={t('meetups.form.removeBreakout', { name: b })} onClick={() => onChange(value.filter((x) => x !== b))}>
                <X aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  )
}
