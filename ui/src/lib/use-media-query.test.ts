import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { useMediaQuery, WIDE } from './use-media-query'

describe('useMediaQuery', () => {
  it('is undefined without matchMedia (both halves are drawn)', () => {
    vi.stubGlobal('matchMedia', undefined)
    expect(renderHook(() => useMediaQuery(WIDE)).result.current).toBeUndefined()
  })

  it('follows the window across the breakpoint', () => {
    let matches = false
    const listeners = new Set<() => void>()
    vi.stubGlobal('matchMedia', (media: string) => ({
      media,
      get matches() {
        return matches
      },
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    }))
    const { result, unmount } = renderHook(() => useMediaQuery(WIDE))
    expect(result.current).toBe(false)
    act(() => {
      matches = true
      for (const listener of listeners) listener()
    })
    expect(result.current).toBe(true)
    unmount()
    expect(listeners.size).toBe(0)
  })
})
