import { isApiError, type Schemas, type User } from '@/api/client'
import { MEMBER_NAME_MAX, memberTags } from '@/lib/member-form'

// The profile page's form (issue 16): the person's own fields, checked as
// PATCH /users/me checks them (command/account's Person.normalize), so
// that most mistakes show before the round trip; the server's 400 field
// errors show on the same fields.

export const TEXT_MAX = 100
export const BIO_MAX = 1000
export const TAGS_MAX = 30
export const TAG_MAX = 40
export const YEAR_MIN = 1900
export const YEAR_MAX = 2100

export const PROFILE_FIELDS = ['firstName', 'lastName', 'jobTitle', 'company', 'bio', 'interests', 'school', 'degree', 'fieldOfStudy', 'graduationYear'] as const
export type ProfileField = (typeof PROFILE_FIELDS)[number]
export type ProfileValues = Record<ProfileField, string>
export type ProfileErrorKey = 'name' | 'line' | 'bio' | 'tags' | 'tag' | 'unclean' | 'year'
/** A field's error: one of ours (a key of profile.form.errors), or the server's own words. */
export type ProfileErrors = Partial<Record<ProfileField, { key: ProfileErrorKey } | { message: string }>>

/** valuesOf is the form's start: the user's fields, interests comma-separated. */
export const valuesOf = (u: User): ProfileValues => ({
  firstName: u.firstName,
  lastName: u.lastName,
  jobTitle: u.jobTitle,
  company: u.company,
  bio: u.bio,
  interests: u.interestTags.join(', '),
  school: u.school,
  degree: u.degree,
  fieldOfStudy: u.fieldOfStudy,
  graduationYear: u.graduationYear == null ? '' : String(u.graduationYear),
})

// Control and bidirectional formatting characters (plaintext.Clean).
const UNCLEAN = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u
const length = (s: string) => [...s].length

/** validateProfile is the server's rules on the form's values. */
export function validateProfile(v: ProfileValues): ProfileErrors {
  const e: ProfileErrors = {}
  for (const f of ['firstName', 'lastName'] as const) {
    const s = v[f].trim()
    if (!s || length(s) > MEMBER_NAME_MAX) e[f] = { key: 'name' }
    else if (UNCLEAN.test(s)) e[f] = { key: 'unclean' }
  }
  for (const f of ['jobTitle', 'company', 'school', 'degree', 'fieldOfStudy'] as const) {
    const s = v[f].trim()
    if (length(s) > TEXT_MAX) e[f] = { key: 'line' }
    else if (UNCLEAN.test(s)) e[f] = { key: 'unclean' }
  }
  if (length(v.bio.trim()) > BIO_MAX) e.bio = { key: 'bio' }
  const tags = memberTags(v.interests)
  if (tags.length > TAGS_MAX) e.interests = { key: 'tags' }
  else if (tags.some((t) => length(t) > TAG_MAX)) e.interests = { key: 'tag' }
  else if (tags.some((t) => UNCLEAN.test(t))) e.interests = { key: 'unclean' }
  const y = v.graduationYear.trim()
  if (y && (!/^\d{4}$/.test(y) || Number(y) < YEAR_MIN || Number(y) > YEAR_MAX)) e.graduationYear = { key: 'year' }
  return e
}

/** profileBody is what PATCH /users/me is sent: trimmed text, the tags as a list, an empty year cleared. */
export function profileBody(v: ProfileValues): Schemas['UpdateMeRequest'] {
  const y = v.graduationYear.trim()
  return {
    firstName: v.firstName.trim(),
    lastName: v.lastName.trim(),
    jobTitle: v.jobTitle.trim(),
    company: v.company.trim(),
    bio: v.bio.trim(),
    interestTags: memberTags(v.interests),
    school: v.school.trim(),
    degree: v.degree.trim(),
    fieldOfStudy: v.fieldOfStudy.trim(),
    graduationYear: y ? Number(y) : null,
  }
}

/** serverErrors are the server's refusals (400 validationFailed) by the form's fields. */
export function serverErrors(err: unknown): ProfileErrors {
  if (!isApiError(err) || err.status !== 400) return {}
  const fields = err.details?.fields ?? {}
  const out: ProfileErrors = {}
  for (const [k, msg] of Object.entries(fields)) {
    const f = (k === 'interestTags' ? 'interests' : k) as ProfileField
    if (PROFILE_FIELDS.includes(f) && msg) out[f] = { message: msg.charAt(0).toUpperCase() + msg.slice(1) + (msg.endsWith('.') ? '' : '.') }
  }
  return out
}
