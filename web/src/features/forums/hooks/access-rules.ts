import type { Schemas } from '@/api/client'

// The rules of forum access management (spec 001 §4, §5, §6), kept apart
// from the screens so they can be tested alone. The server enforces the same
// rules (POST /api/series/{id}/assignments answers ownAssignment, lastAdmin
// or exclusivityOpen); the client only keeps people from asking for them.

export type AssignableRole = Schemas['ForumAssignableRole']
export type Exclusivity = Schemas['Forum']['exclusivity']
/** A role to give, or null to remove the person from the forum. */
export type StagedRole = AssignableRole | null

/** The roles a person can be given, in menu order. */
export const ASSIGNABLE_ROLES: readonly AssignableRole[] = ['admin', 'member', 'admin-expert', 'member-expert']

export const isAdminRole = (r: StagedRole | undefined) => r === 'admin' || r === 'admin-expert'

/**
 * The person of a staged change: enough to list them again in the
 * confirmation, and to know whom to invite.
 */
export type StagedPerson = { id: string; firstName: string; lastName: string; email: string; userId: string | null }

/**
 * A staged change of one person: the role they had (null when not in the
 * forum) and the role they will have (null to remove).
 */
export type StagedChange = { person: StagedPerson; original: StagedRole; next: StagedRole }

/** Staged is the changes an admin has made but not applied, by profile id. */
export type Staged = ReadonlyMap<string, StagedChange>

/**
 * stage records next as a person's role. Choosing their original role again
 * drops the change, so "nothing differs" is simply an empty map.
 */
export function stage(staged: Staged, person: StagedPerson, original: StagedRole, next: StagedRole): Staged {
  const out = new Map(staged)
  if (next === original) out.delete(person.id)
  else out.set(person.id, { person, original, next })
  return out
}

/** unstage drops a person's change. */
export function unstage(staged: Staged, id: string): Staged {
  const out = new Map(staged)
  out.delete(id)
  return out
}

/** roleOf is a person's role with the staged change applied. */
export const roleOf = (staged: Staged, id: string, original: StagedRole): StagedRole =>
  staged.has(id) ? staged.get(id)!.next : original

/**
 * canConfirm: the Confirm of both access modals is enabled only when some
 * person's role differs from what it was (spec 001 §5).
 */
export const canConfirm = (staged: Staged) => [...staged.values()].some((c) => c.next !== c.original)

/**
 * toStagedState is the API's staged state (spec 001 §3): one entry per
 * target role, people in the order they were staged.
 */
export function toStagedState(staged: Staged): Schemas['ForumStagedState'] {
  const byRole = new Map<StagedRole, string[]>()
  for (const c of staged.values()) {
    if (c.next === c.original) continue
    const ids = byRole.get(c.next) ?? []
    ids.push(c.person.id)
    byRole.set(c.next, ids)
  }
  return { assignments: [...byRole].map(([roleId, assigneeIds]) => ({ roleId, assigneeIds })) }
}

/**
 * newcomers are the staged people who join the forum: they get the
 * invitation mail (people with an account are skipped by the server).
 */
export const newcomers = (staged: Staged) =>
  [...staged.values()].filter((c) => c.original === null && c.next !== null).map((c) => c.person.id)

/** The menu of one row of the existing-members list. */
export type RoleMenu =
  | { kind: 'self' } // the user's own row: shown, never changeable
  | { kind: 'menu'; options: (AssignableRole | 'remove')[]; lastAdmin: boolean }

/**
 * roleMenu is what an admin may choose for one assigned member (spec 001
 * §4, §6):
 * - the user's own row cannot be changed;
 * - the last admin keeps an admin role: `otherAdmins` is the server's
 *   self-exclusive admin set for the current staged state (POST
 *   admin-count), the admins other than the user. When the user is not an
 *   admin of the forum themselves and that set is this member alone, the
 *   member is the last admin and only the admin roles are offered;
 * - removal is hidden when the forum is open, as open cannot be undone.
 */
export function roleMenu(opts: {
  member: { id: string; userId: string | null }
  current: StagedRole
  meUserId: string | undefined
  meIsForumAdmin: boolean
  otherAdmins: readonly string[] | undefined
  exclusivity: Exclusivity
}): RoleMenu {
  const { member, current, meUserId, meIsForumAdmin, otherAdmins, exclusivity } = opts
  if (meUserId && member.userId === meUserId) return { kind: 'self' }
  const lastAdmin = !meIsForumAdmin && isAdminRole(current) && otherAdmins?.length === 1 && otherAdmins[0] === member.id
  const roles: AssignableRole[] = lastAdmin ? ASSIGNABLE_ROLES.filter(isAdminRole) : [...ASSIGNABLE_ROLES]
  const options: (AssignableRole | 'remove')[] = [...roles]
  if (!lastAdmin && exclusivity !== 'open') options.push('remove')
  return { kind: 'menu', options, lastAdmin }
}

/** The existing-members list shows its search box only past this many members (spec 001 §9). */
export const SEARCH_THRESHOLD = 10

export const showMemberSearch = (assignedTotal: number | undefined) => (assignedTotal ?? 0) > SEARCH_THRESHOLD

/** Page sizes of the access lists (spec 001 §9). */
export const EXISTING_PAGE_SIZE = 10
export const UNASSIGNED_PAGE_SIZE = 25
