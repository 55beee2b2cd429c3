import { useRef } from 'react'

/** The onOpenAutoFocus and onCloseAutoFocus a dialog's content gets from useReturnFocus. */
export interface ReturnFocusHandlers {
  onOpenAutoFocus: (event: Event) => void
  onCloseAutoFocus: (event: Event) => void
}

/**
 * Focus back to what opened a dialog (issue 37). Radix gives it back to the
 * dialog's Trigger; a dialog whose `open` a row's button drives has none,
 * and focus fell to the page's body. The element focused as the dialog
 * opens (before Radix moves focus in) is remembered, and focused again when
 * it closes, unless the caller's own handler chose. When that element is
 * gone or cannot take focus (none was focused, the opener left the page,
 * it is disabled), Radix's own return to the Trigger stands.
 */
export function useReturnFocus(
  onOpenAutoFocus?: (event: Event) => void,
  onCloseAutoFocus?: (event: Event) => void,
): ReturnFocusHandlers {
  const opener = useRef<Element | null>(null)
  return {
    onOpenAutoFocus: (event) => {
      opener.current = document.activeElement
      onOpenAutoFocus?.(event)
    },
    onCloseAutoFocus: (event) => {
      onCloseAutoFocus?.(event)
      const el = opener.current
      opener.current = null
      if (event.defaultPrevented) return
      if (!(el instanceof HTMLElement) || el === document.body || !el.isConnected) return
      if ((el as HTMLButtonElement).disabled) return
      event.preventDefault()
      el.focus()
    },
  }
}
