import type { Schemas } from '@/api/client'

// The shapes of contract 15's community calls (spec 000 §3), declared here
// until the API is in schema.d.ts. Each is named after the contract's object.

export type MyForum = Schemas['MyForum']

// contract-15: replaced by Schemas['NamedRef'] when the API lands
export type NamedRef = { id: string; name: string }

export type CommunityPermissions = Schemas['CommunityPermissions']
export type Community = Schemas['Community']
export type CommunityList = Schemas['CommunityList']

// contract-15: replaced by Schemas['CommunityForm'] when the API lands
export type CommunityForm = {
  name: string
  description: string
  membershipType?: 'invitationOnly'
  image?: string | null
  video?: string | null
  videoCover?: string | null
  ssoAccess?: boolean
  price?: number
  isFree?: boolean
}

// contract-15: replaced by Schemas['Created'] when the API lands
export type Created = { id: string }

// contract-15: replaced by Schemas['CommunityMember'] when the API lands
export type CommunityMember = {
  id: string
  userId: string | null
  firstName: string
  lastName: string
  avatar: string | null
  jobTitle: string
  company: string
  isSubscribed: boolean
  isExpert: boolean
  assignmentStatus: 'active' | 'pending'
  role: 'admin' | 'cascadingAdmin' | 'member'
}

// contract-15: replaced by Schemas['HighlightedMembers'] when the API lands
export type HighlightedMembers = Record<string, { total: number; highlightedMembers: CommunityMember[] }>

// contract-15: replaced by Schemas['CommunityRole'] when the API lands
export type CommunityRole = { id: 'admin' | 'member'; name: string }

// contract-15: replaced by Schemas['CommunityAssignable'] when the API lands
export type CommunityAssignable = {
  id: string
  userId: string | null
  firstName: string
  lastName: string
  email: string
  avatar: string | null
  jobTitle: string
  company: string
  assignmentStatus: 'active' | 'pending' | null
  role: NamedRef | null
  assignedOn: string | null
  isMe: boolean
}

// contract-15: replaced by Schemas['CommunityAssignableList'] when the API lands
export type CommunityAssignableList = { results: CommunityAssignable[]; total: number }

// contract-15: replaced by Schemas['AssignmentChange'] when the API lands
export type AssignmentChange = { roleId: 'admin' | 'member' | null; assigneeIds: string[] }

// contract-15: replaced by Schemas['BulkAssignment'] when the API lands
export type BulkAssignment = { roleId: 'admin' | 'member' | null; keyword?: string; presetFilter?: string; filters?: string }

// contract-15: replaced by Schemas['AssignmentResult'] when the API lands
export type AssignmentResult = { changed: number }

// contract-15: replaced by Schemas['ImportProgress'] when the API lands
export type ImportProgress = { type: 'progress'; processed: number; total: number }

// contract-15: replaced by Schemas['ImportReport'] when the API lands
export type ImportReport = {
  type: 'report'
  added: number
  existing: number
  skipped: { row: number; email: string; reason: string; message: string }[]
}

// contract-15: replaced by Schemas['OrganizationPermissions'] when the API lands
export type OrganizationPermissions = { whichOnesCanIManage: NamedRef[]; whichOnesCanIAddCommunitiesTo: NamedRef[] }
