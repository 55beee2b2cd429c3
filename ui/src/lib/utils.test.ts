import { afterEach, describe, expect, it, vi } from 'vitest'
import { classConflicts, cn } from './utils'

describe('cn', () => {
  afterEach(() => {
    classConflicts.length = 0
  })

  it('joins class names and drops falsy ones', () => {
    expect(cn('px-2', false, undefined, { 'font-medium': true, hidden: false }, ['text-sm'])).toBe(
      'px-2 font-medium text-sm',
    )
  })

  it('keeps classes of different variants apart', () => {
    expect(cn('hidden sm:table-cell', 'text-sm md:text-base')).toBe('hidden sm:table-cell text-sm md:text-base')
  })

  it('reports two classes of one Tailwind group, which only the stylesheet order would settle', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(cn('animate-pulse rounded-md', 'rounded-full')).toBe('animate-pulse rounded-md rounded-full')
    cn('text-left', 'text-right')
    expect(classConflicts.splice(0)).toEqual([
      'rounded-md overridden in "animate-pulse rounded-md rounded-full"',
      'text-left overridden in "text-left text-right"',
    ])
    expect(log).toHaveBeenCalledTimes(2)
  })
})
