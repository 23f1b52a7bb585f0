import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { PageGrid } from './page-grid'

// jsdom lays nothing out: the tracks are read from the grid's classes, and
// the browser test (e2e/tests/layout.mjs) measures them at 1440 px.
describe('PageGrid (spec 000 §2.3)', () => {
  it('has a 220 px track for each side the page has something for, and the page’s column up to a readable width', () => {
    const { rerender } = render(<PageGrid left={<p>forums</p>}>feed</PageGrid>)
    const grid = screen.getByTestId('page-grid')
    expect(grid.className).toContain('lg:grid-cols-[220px_minmax(0,52rem)]')
    expect(grid.className).toContain('lg:justify-center')
    expect(screen.getAllByRole('complementary')).toHaveLength(1)
    expect(screen.getByRole('complementary')).toHaveTextContent('forums')

    rerender(
      <PageGrid left={<p>forums</p>} right={<p>more</p>}>
        feed
      </PageGrid>,
    )
    expect(grid.className).toContain('lg:grid-cols-[220px_minmax(0,52rem)_220px]')
    expect(screen.getAllByRole('complementary')).toHaveLength(2)
  })

  it('leaves out the track of a side with nothing to show', () => {
    render(<PageGrid left={false}>page</PageGrid>)
    const grid = screen.getByTestId('page-grid')
    expect(screen.queryByRole('complementary')).toBeNull()
    expect(grid.className).toContain('lg:grid-cols-[minmax(0,56rem)]')
    expect(grid).toHaveTextContent('page')
  })
})
