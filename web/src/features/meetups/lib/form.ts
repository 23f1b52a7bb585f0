import { DURATIONS, type Duration, type InviteeRole, type Meeting, type MeetingForm } from '../api/types'

// The Meet Up form's values and rules (spec 002 §5, §9).

export const LIMITS = { name: 75, agenda: 250, seatsMin: 1, seatsMax: 50, breakouts: 10, breakoutName: 50 } as const

/**
 * DEFAULT_SEATS is an open Meet Up's seat count until its admin chooses
 * another: the most the spec allows (§9), so that an open Meet Up turns
 * nobody away unless its admin wants a smaller group.
 */
export const DEFAULT_SEATS = LIMITS.seatsMax

export type Invitee = { userId: string; name: string; role: InviteeRole }

export type FormValues = {
  name: string
  agenda: string
  date: string // yyyy-mm-dd, local
  time: string // hh:mm, local
  duration: Duration
  /** null until chosen, where the member may choose (canDoOpenMeetups). */
  open: boolean | null
  seatCount: string
  invitees: Invitee[]
  breakouts: string[]
}

const pad = (n: number) => String(n).padStart(2, '0')
const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
const localTime = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`

/** startNow is the form's start at now (seconds 0). */
export function startNow(now = new Date()): Pick<FormValues, 'date' | 'time'> {
  const d = new Date(now)
  d.setSeconds(0, 0)
  return { date: localDate(d), time: localTime(d) }
}

/** emptyForm: a new Meet Up starts now (seconds 0), for 15 minutes; private unless the member may choose. */
export function emptyForm(canOpen: boolean, now = new Date()): FormValues {
  return { name: '', agenda: '', ...startNow(now), duration: 15, open: canOpen ? null : false, seatCount: '', invitees: [], breakouts: [] }
}

/** formOf is an existing Meet Up's values, invitees named by names(userId). */
export function formOf(m: Meeting, names: (userId: string) => string): FormValues {
  const d = new Date(m.startTime)
  return {
    name: m.name,
    agenda: m.agenda,
    date: localDate(d),
    time: localTime(d),
    duration: DURATIONS.includes(m.duration) ? m.duration : 15,
    open: m.open,
    seatCount: m.seatCount == null ? '' : String(m.seatCount),
    invitees: Object.keys(m.invitees).map((userId) => ({ userId, name: names(userId), role: m.roles[userId] ?? 'member' })),
    breakouts: Object.entries(m.breakouts.rooms)
      .sort((a, b) => a[1] - b[1])
      .map(([name]) => name),
  }
}

export type FormErrors = Partial<Record<'name' | 'agenda' | 'start' | 'duration' | 'open' | 'seatCount' | 'invitees' | 'breakouts', string>>

/** registeredOf is how many members have registered for a Meet Up: its seats may not go below it. */
export const registeredOf = (m: Pick<Meeting, 'seatCount' | 'seatsLeft'>) => (m.seatCount != null && m.seatsLeft != null ? Math.max(0, m.seatCount - m.seatsLeft) : 0)

/** startOf is the chosen start, or null when the date or time is not valid. */
export function startOf(v: Pick<FormValues, 'date' | 'time'>): Date | null {
  const d = new Date(`${v.date}T${v.time}`)
  return Number.isNaN(d.getTime()) ? null : d
}

/**
 * validate gives the i18n key of each field's error. The start may not be
 * before now, a minute's grace given (the form opened with now's minute);
 * an edited Meet Up keeps its start unchecked when it is unchanged, and its
 * seats may not go below the members registered. offerOpen says whether
 * the member may still choose Open registration: only then does the
 * missing-invitees error name it.
 */
export function validate(
  v: FormValues,
  { now = new Date(), keptStart, registered = 0, offerOpen = false }: { now?: Date; keptStart?: string; registered?: number; offerOpen?: boolean } = {},
): FormErrors {
  const e: FormErrors = {}
  const name = v.name.trim()
  if (!name) e.name = 'meetups.form.errors.nameRequired'
  else if (name.length > LIMITS.name) e.name = 'meetups.form.errors.nameTooLong'
  if (v.agenda.length > LIMITS.agenda) e.agenda = 'meetups.form.errors.agendaTooLong'
  const start = startOf(v)
  if (!start) e.start = 'meetups.form.errors.startInvalid'
  else if (start.toISOString() !== keptStart && start.getTime() < now.getTime() - 60_000) e.start = 'meetups.form.errors.startPast'
  if (v.open === null) e.open = 'meetups.form.errors.access'
  if (v.open) {
    const n = Number(v.seatCount)
    if (v.seatCount.trim() === '') e.seatCount = 'meetups.form.errors.seatCount'
    else if (!Number.isInteger(n) || n < LIMITS.seatsMin || n > LIMITS.seatsMax) e.seatCount = 'meetups.form.errors.seatRange'
    else if (n < registered) e.seatCount = 'meetups.form.errors.seatsBelowRegistered'
  }
  if (v.open !== true && v.invitees.length === 0) e.invitees = offerOpen ? 'meetups.form.errors.inviteesOrOpen' : 'meetups.form.errors.invitees'
  return e
}

/** What the server's refusal of the form says to the member: each field's error, and whether a refusal of no field of the form came too. */
export type ServerErrors = { errors: FormErrors; other: boolean }

const UNCLEAN = /control|bidirectional/i

/**
 * serverErrors reads the fields of a 400 validationFailed (details.fields,
 * field to message) as the form's own errors. The server's messages are
 * written for developers ("must set seat count if the Meet Up is open"):
 * each is read for its field and its rule and said in the member's words
 * instead, and the missing-invitees one names Open registration only to a
 * member who may still choose it.
 */
export function serverErrors(fields: Record<string, string>, { offerOpen = false }: { offerOpen?: boolean } = {}): ServerErrors {
  const errors: FormErrors = {}
  let other = false
  for (const [field, message] of Object.entries(fields)) {
    const unclean = UNCLEAN.test(message)
    switch (field) {
      case 'name':
        errors.name = unclean ? 'meetups.form.errors.unclean' : 'meetups.form.errors.nameLength'
        break
      case 'agenda':
        errors.agenda = unclean ? 'meetups.form.errors.unclean' : 'meetups.form.errors.agendaTooLong'
        break
      case 'startTime':
        errors.start = /past/i.test(message) ? 'meetups.form.errors.startPast' : 'meetups.form.errors.startInvalid'
        break
      case 'duration':
        errors.duration = 'meetups.form.errors.duration'
        break
      case 'seatCount':
        errors.seatCount = /registered/i.test(message) ? 'meetups.form.errors.seatsBelowRegistered' : 'meetups.form.errors.seatCount'
        break
      case 'open':
        errors.open = 'meetups.form.accessLocked'
        break
      case 'invitees':
        errors.invitees = /at least one/i.test(message)
          ? offerOpen
            ? 'meetups.form.errors.inviteesOrOpen'
            : 'meetups.form.errors.invitees'
          : /member of the forum/i.test(message)
            ? 'meetups.form.errors.inviteeNotMember'
            : 'meetups.form.errors.inviteesInvalid'
        break
      case 'breakouts':
        errors.breakouts = unclean ? 'meetups.form.errors.unclean' : 'meetups.form.errors.breakoutsInvalid'
        break
      default:
        other = true
    }
  }
  return { errors, other }
}

/** registeredIn reads the registered members' count of the server's seatCount refusal ("must be at least the 3 registered members"). */
export const registeredIn = (fields: Record<string, string>) => {
  const n = /(\d+) registered/.exec(fields.seatCount ?? '')?.[1]
  return n === undefined ? undefined : Number(n)
}

/** breakoutError is the key of what is wrong with adding name, or undefined. */
export function breakoutError(list: string[], name: string): string | undefined {
  const n = name.trim()
  if (!n || n.length > LIMITS.breakoutName) return 'meetups.form.errors.breakoutLength'
  if (list.some((x) => x.toLowerCase() === n.toLowerCase())) return 'meetups.form.errors.breakoutDuplicate'
  if (list.length >= LIMITS.breakouts) return 'meetups.form.errors.breakoutMax'
  return undefined
}

/** toBody is the MeetingForm the API takes; seatCount is cleared when the Meet Up is not open. */
export function toBody(v: FormValues): MeetingForm {
  const open = v.open === true
  return {
    name: v.name.trim(),
    agenda: v.agenda.trim(),
    startTime: (startOf(v) ?? new Date()).toISOString(),
    duration: v.duration,
    open,
    seatCount: open ? Number(v.seatCount) : null,
    invitees: Object.fromEntries(v.invitees.map((i) => [i.userId, i.role])),
    breakouts: v.breakouts,
  }
}
