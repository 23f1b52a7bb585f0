import type { Schemas } from '@/api/client'

// The community calls' shapes (spec 000 §3), as httpapi/openapi/openapi.yaml
// declares them.

export type MyForum = Schemas['MyForum']
export type NamedRef = Schemas['Named']

export type CommunityPermissions = Schemas['CommunityPermissions']
export type Community = Schemas['Community']
export type CommunityList = Schemas['CommunityList']
export type CommunityForm = Schemas['CommunityForm']
export type Created = Schemas['CreatedId']

export type CommunityMember = Schemas['CommunityMember']
/** HighlightedMembers is keyed by community id; ids the caller cannot read are absent. */
export type HighlightedMembers = Record<string, Schemas['HighlightedMembers']>

export type CommunityRole = Schemas['CommunityShareRole']
export type CommunityAssignable = Schemas['CommunityAssignable']
export type CommunityAssignableList = Schemas['CommunityAssignableList']
export type AssignmentChange = Schemas['CommunityStagedAssignment']
export type BulkAssignment = Schemas['CommunityBulkAssignment']
export type AssignmentResult = Schemas['CommunityAssignmentsChanged']
export type Invitations = Schemas['ForumInvitations']

export type Permissions = Schemas['Permissions']
