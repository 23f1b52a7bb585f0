import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { AvatarGroup } from './avatar'

const people = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov'].map((n, i) => {
  const [firstName, lastName] = n.split(' ') as [string, string]
  return { id: String(i), firstName, lastName }
})

describe('AvatarGroup (3 shown, 2 on small screens, then +N)', () => {
  it('shows +N for the rest, for both screen sizes', () => {
    render(<AvatarGroup people={people} />)
    expect(screen.getByText('+2')).toHaveClass('sm:flex') // large: 3 shown, +2
    expect(screen.getByText('+3')).toHaveClass('sm:hidden') // small: 2 shown, +3
    expect(screen.getByRole('group')).toHaveAccessibleName(/Ada Lovelace, Alan Turing/)
  })
  it('shows no counter when everyone fits', () => {
    render(<AvatarGroup people={people.slice(0, 2)} />)
    expect(screen.queryByText(/^\+/)).toBeNull()
  })
  it('counts from the total when only a preview is loaded', () => {
    render(<AvatarGroup people={people.slice(0, 3)} total={10} />)
    expect(screen.getByText('+7')).toBeInTheDocument()
  })
})
