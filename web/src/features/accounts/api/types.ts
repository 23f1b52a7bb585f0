// The shapes of contract 15's organization calls, declared here until the
// API is in schema.d.ts. Each is named after the contract's object.

// contract-15: replaced by Schemas['Organization'] when the API lands
export type Organization = {
  id: string
  name: string
  image: string | null
  role: 'super' | 'admin' | 'member'
  /** The issuer URL when single sign-on is on. */
  identityClient: string | null
  numCommunities: number
  numMembers: number
  createdOn: string
}

// contract-15: replaced by Schemas['OrganizationList'] when the API lands
export type OrganizationList = { results: Organization[]; total: number }

// contract-15: replaced by Schemas['OrganizationForm'] when the API lands
export type OrganizationForm = { name: string; image?: string | null }

// contract-15: replaced by Schemas['OrgProfile'] when the API lands
export type OrgProfile = {
  id: string
  userId: string | null
  firstName: string
  lastName: string
  email: string
  role: 'admin' | 'member'
  tags: string[]
  jobTitle: string
  company: string
  avatar: string | null
  status: 'active' | 'invited'
}

// contract-15: replaced by Schemas['OrgProfileList'] when the API lands
export type OrgProfileList = { results: OrgProfile[]; total: number }

// contract-15: replaced by Schemas['OrgProfileCreate'] when the API lands
export type OrgProfileCreate = { firstName: string; lastName: string; email: string; roleId?: 'admin' | 'member'; tags?: string[]; sendInvitation?: boolean }

// contract-15: replaced by Schemas['ProfilePatch'] when the API lands
export type ProfilePatch = { firstName?: string; lastName?: string; email?: string; roleId?: 'admin' | 'member'; tags?: string[] }

// contract-15: replaced by Schemas['Created'] when the API lands
export type Created = { id: string }
