import { isEmail } from './forms'

// The new member form (spec 000 §2.7, §5), for a community's and an
// organization's members alike.

export const MEMBER_NAME_MAX = 50

export type MemberFormValues = { firstName: string; lastName: string; email: string; roleId: string; tags: string }
export type MemberFormErrors = Partial<Record<'firstName' | 'lastName' | 'email', 'validName' | 'tooLong' | 'required' | 'invalidEmail'>>

const nameError = (s: string) => (!s.trim() ? 'validName' : [...s.trim()].length > MEMBER_NAME_MAX ? 'tooLong' : undefined)

/** validateMemberForm: names required and trimmed, at most 50 characters; a valid email. */
export function validateMemberForm(v: MemberFormValues): MemberFormErrors {
  const e: MemberFormErrors = {}
  const first = nameError(v.firstName)
  const last = nameError(v.lastName)
  if (first) e.firstName = first
  if (last) e.lastName = last
  if (!v.email.trim()) e.email = 'required'
  else if (!isEmail(v.email.trim())) e.email = 'invalidEmail'
  return e
}

/** memberTags reads the free-form tags (comma-separated) as a list: trimmed, no empties, no repeats. */
export function memberTags(s: string): string[] {
  return [...new Set(s.split(',').map((t) => t.trim()).filter(Boolean))]
}

/** trimMember is what is sent: trimmed names and email. */
export const trimMember = (v: MemberFormValues): MemberFormValues => ({
  ...v,
  firstName: v.firstName.trim(),
  lastName: v.lastName.trim(),
  email: v.email.trim(),
})
