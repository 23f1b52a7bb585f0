import { describe, expect, it } from 'vitest'
import { manageEntries } from './manage-menu'

const none = { whichOnesCanIManage: [], whichOnesCanIAddCommunitiesTo: [] }
const org = { id: 'o', name: 'Org' }

describe('the Manage menu (spec 000 §2.2, §6)', () => {
  it('is hidden when the user manages nothing, or before the permissions are known', () => {
    expect(manageEntries(none, { whichOnesCanIManage: [] })).toEqual([])
    expect(manageEntries(undefined, undefined)).toEqual([])
  })
  it('offers Accounts to organization managers and Communities to community managers or those who may add one', () => {
    expect(manageEntries({ whichOnesCanIManage: [org], whichOnesCanIAddCommunitiesTo: [org] }, undefined)).toEqual(['accounts', 'communities'])
    expect(manageEntries(none, { whichOnesCanIManage: [org] })).toEqual(['communities'])
    expect(manageEntries({ whichOnesCanIManage: [], whichOnesCanIAddCommunitiesTo: [org] }, { whichOnesCanIManage: [] })).toEqual(['communities'])
  })
})
