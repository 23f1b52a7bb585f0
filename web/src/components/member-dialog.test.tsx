import { screen } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/api/client'
import { renderInApp } from '@/test/utils'
import { MemberDialog } from './member-dialog'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

describe('the new member dialog', () => {
  it('checks the names and email, sends them trimmed, and shows a 409 as an email conflict', async () => {
    const onSubmit = vi.fn().mockRejectedValueOnce(new ApiError(409, { code: 'emailConflict', message: 'taken' }))
    const onOpenChange = vi.fn()
    await renderInApp(<MemberDialog open onOpenChange={onOpenChange} title="New member" roles={[{ id: 'admin', name: 'Admin' }, { id: 'member', name: 'Member' }]} onSubmit={onSubmit} />)
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }))
    expect(screen.getAllByText('Enter a valid name.')).toHaveLength(2)
    expect(screen.getByText('Required.')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()

    await userEvent.type(screen.getByLabelText('First name'), ' Ann ')
    await userEvent.type(screen.getByLabelText('Last name'), 'Lee')
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com')
    await userEvent.type(screen.getByLabelText('Tags'), 'ai, growth')
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }))
    expect(onSubmit).toHaveBeenCalledWith({ firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', roleId: 'member', tags: 'ai, growth' })
    expect(await screen.findByText('A member with this email already exists.')).toBeInTheDocument()
    expect(onOpenChange).not.toHaveBeenCalled()
  }, 30_000)
})
