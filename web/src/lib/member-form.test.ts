import { describe, expect, it } from 'vitest'
import { memberTags, trimMember, validateMemberForm } from './member-form'

const v = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', roleId: 'member', tags: '' }

describe('the new member form (spec 000 §5)', () => {
  it('needs names of 1 to 50 characters and a valid email', () => {
    expect(validateMemberForm(v)).toEqual({})
    expect(validateMemberForm({ ...v, firstName: '  ' }).firstName).toBe('validName')
    expect(validateMemberForm({ ...v, lastName: 'x'.repeat(51) }).lastName).toBe('tooLong')
    expect(validateMemberForm({ ...v, lastName: ` ${'x'.repeat(50)} ` }).lastName).toBeUndefined()
    expect(validateMemberForm({ ...v, email: '' }).email).toBe('required')
    expect(validateMemberForm({ ...v, email: 'ann@' }).email).toBe('invalidEmail')
  })

  it('reads tags as a trimmed list without repeats, and trims what it sends', () => {
    expect(memberTags(' a, b ,,a ')).toEqual(['a', 'b'])
    expect(trimMember({ ...v, firstName: ' Ann ', email: ' ann@example.com ' })).toMatchObject({ firstName: 'Ann', email: 'ann@example.com' })
  })
})
