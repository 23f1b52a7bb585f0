import { describe, expect, it } from 'vitest'
import i18n from '.'

// The keys the spec names keep their names and namespaces.
describe('translations', () => {
  it.each([
    'global:error.seriesForbidden',
    'global:error.seriesLoading',
    'global:error.loginAuthentication',
    'global:error.assignablesLoading',
    'global:error.feedPostCreating',
    'accessToken.invalid',
    'error.genericMessage',
  ])('has %s', (key) => {
    expect(i18n.exists(key)).toBe(true)
  })
  it('has the plural forms of invitationsUpdated', () => {
    expect(i18n.t('global:success.invitationsUpdated', { count: 1 })).toBe('Access updated for 1 person.')
    expect(i18n.t('global:success.invitationsUpdated', { count: 3 })).toBe('Access updated for 3 people.')
  })
})
