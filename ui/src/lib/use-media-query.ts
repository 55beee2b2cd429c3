import { useSyncExternalStore } from 'react'

/** Tailwind's md and lg breakpoints, as its stylesheet writes them. */
export const WIDE = '(width >= 48rem)'
export const LARGE = '(width >= 64rem)'

// One list per query, asked of the window's matchMedia as it is now (a
// test replaces it).
const lists = new Map<string, { from: typeof window.matchMedia; list: MediaQueryList }>()

function list(query: string): MediaQueryList | undefined {
  const matchMedia = window.matchMedia
  if (typeof matchMedia !== 'function') return undefined
  let found = lists.get(query)
  if (found?.from !== matchMedia) {
    found = { from: matchMedia, list: window.matchMedia(query) }
    lists.set(query, found)
  }
  return found.list
}

/**
 * Whether the window matches `query`, following changes (the window resized
 * or rotated across it); undefined where the browser cannot say (no
 * matchMedia, as in jsdom). The shell draws the halves that only one width
 * shows (the sidebar, the phone menu) only at that width, so a phone's first
 * render does not build what its CSS hides (issue 37 item 9).
 */
export function useMediaQuery(query: string): boolean | undefined {
  return useSyncExternalStore(
    (onChange) => {
      const media = list(query)
      media?.addEventListener('change', onChange)
      return () => media?.removeEventListener('change', onChange)
    },
    () => list(query)?.matches,
  )
}
