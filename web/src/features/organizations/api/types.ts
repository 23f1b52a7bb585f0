import type { Schemas } from '@/api/client'

// The organization calls' shapes (spec 000 §3), as httpapi/openapi/openapi.yaml
// declares them.

export type Organization = Schemas['Organization']
export type OrganizationList = Schemas['OrganizationPage']
export type OrganizationForm = Schemas['OrganizationForm']
export type OrganizationPatch = Schemas['OrganizationPatch']
export type OrgProfile = Schemas['OrganizationProfile']
export type OrgProfileList = Schemas['OrganizationProfilePage']
export type OrgProfileCreate = Schemas['AddOrganizationProfileRequest']
export type ProfilePatch = Schemas['UpdateProfileRequest']
export type Created = Schemas['CreatedId']
export type IdentityClient = Schemas['IdentityClientRequest']
