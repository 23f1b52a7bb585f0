import type { AssignmentChange, BulkAssignment, CommunityAssignable } from '../api/types'

// The share dialog's selection (spec 000 §3, §4): a new role per member
// (null = remove), or one bulk role for every member the filter selects.

export type RoleId = 'admin' | 'member'
export type Choice = RoleId | null

export type ShareSelection = {
  /** The bulk choice; undefined while none is made. */
  bulk?: { roleId: Choice }
  /** The choices per member (profile id), which override the bulk one. */
  rows: Record<string, Choice>
}

export const emptySelection: ShareSelection = { rows: {} }

/** chooseRow gives a member a role; the same role as the bulk one clears the member's choice. */
export function chooseRow(s: ShareSelection, id: string, roleId: Choice): ShareSelection {
  const rows = { ...s.rows }
  if (s.bulk && s.bulk.roleId === roleId) delete rows[id]
  else rows[id] = roleId
  return { ...s, rows }
}

/** resetRow clears a member's choice. */
export function resetRow(s: ShareSelection, id: string): ShareSelection {
  const rows = { ...s.rows }
  delete rows[id]
  return { ...s, rows }
}

/** chooseBulk sets the bulk role, which clears every member's choice. */
export const chooseBulk = (_: ShareSelection, roleId: Choice): ShareSelection => ({ bulk: { roleId }, rows: {} })

/** resetBulk clears the bulk choice and keeps the members' ones. */
export const resetBulk = (s: ShareSelection): ShareSelection => ({ rows: s.rows })

/** hasSelection: Save is enabled only when something is chosen. */
export const hasSelection = (s: ShareSelection) => !!s.bulk || Object.keys(s.rows).length > 0

/** isChosen says whether the member's row has its own choice. */
export const isChosen = (s: ShareSelection, id: string) => Object.prototype.hasOwnProperty.call(s.rows, id)

/**
 * shownRole is the role the row shows: the member's own choice, else the
 * bulk one (never for the caller, whom no change reaches), else the role
 * the member has.
 */
export function shownRole(s: ShareSelection, a: Pick<CommunityAssignable, 'id' | 'isMe' | 'role'>): Choice {
  if (isChosen(s, a.id)) return s.rows[a.id]!
  if (s.bulk && !a.isMe) return s.bulk.roleId
  return a.role?.id ?? null
}

/**
 * changedCount is the number of people the change reaches, for the
 * confirmation and the invitationsUpdated message: for a bulk change every
 * member the filter selects but the caller (total − 1), else the members
 * chosen one by one.
 */
export const changedCount = (s: ShareSelection, total: number) => (s.bulk ? Math.max(0, total - 1) : Object.keys(s.rows).length)

export type ListFilter = Pick<BulkAssignment, 'keyword' | 'presetFilter' | 'filters'>

/**
 * shareRequests are the calls Save makes: the bulk change with the list's
 * filter first, then the members' own choices, grouped by role.
 */
export function shareRequests(s: ShareSelection, filter: ListFilter): { bulk?: BulkAssignment; changes: AssignmentChange[] } {
  const groups = new Map<Choice, string[]>()
  for (const [id, roleId] of Object.entries(s.rows)) groups.set(roleId, [...(groups.get(roleId) ?? []), id])
  const changes = [...groups].map(([roleId, assigneeIds]) => ({ roleId, assigneeIds }))
  // Only the selecting parameters: the list's sort is not one, and the
  // server refuses a body with a field it does not know.
  const f: ListFilter = {}
  if (filter.keyword) f.keyword = filter.keyword
  if (filter.presetFilter) f.presetFilter = filter.presetFilter
  if (filter.filters) f.filters = filter.filters
  return { bulk: s.bulk ? { roleId: s.bulk.roleId, ...f } : undefined, changes }
}
