import { useDeferredValue, type ReactNode } from 'react'

/**
 * Draws fallback at once and children in a background render right after
 * (issue 37 item 9). The router commits a page in one uninterruptible render;
 * a signed-in page's first one (the shell, its menus and the page's cards)
 * kept a phone's main thread busy for hundreds of milliseconds. Rendered
 * here, React splits that work into slices between which the browser paints
 * and answers input. Once drawn, children update like any other content.
 */
export function Deferred({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const ready = useDeferredValue(true, false)
  return ready ? children : fallback
}
