import {
  cloneElement,
  createElement,
  useEffect,
  useSyncExternalStore,
  type ComponentType,
  type FocusEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
} from 'react'
import { useTranslation } from 'react-i18next'
import { SpinnerIcon } from '@/components/ui/icons'
import { reportError } from '@/lib/error-store'

// Dialogs, and the forms in them, are code no page needs before it is drawn:
// Radix's dialog with what it needs is 45 KB, react-hook-form 41 KB, and the
// team page fetched and ran both in its first load although nothing opens
// until a click (issue 37 item 9, docs/performance.md round 8). Their code
// comes when the browser is idle after the page has drawn, or sooner on the
// first sign of intent (pointer over or focus on the button that opens one).

/** A part of a page whose code is fetched on demand and kept once it has arrived. */
export interface LazyPart<P> {
  /** Fetches the code: once, and again after a failure. */
  preload: () => Promise<ComponentType<P>>
  /** The component, once its code has arrived; null before. */
  loaded: () => ComponentType<P> | null
  /** Calls back when the code arrives. */
  subscribe: (listener: () => void) => () => void
}

/** A LazyPart of the component that `load` resolves to. */
export function lazyPart<P>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let component: ComponentType<P> | null = null
  let pending: Promise<ComponentType<P>> | null = null
  const listeners = new Set<() => void>()
  return {
    preload: () =>
      (pending ??= load().then(
        (loaded) => {
          component = loaded
          for (const listener of listeners) listener()
          return loaded
        },
        (error: unknown) => {
          pending = null
          throw error
        },
      )),
    loaded: () => component,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/**
 * The part's component once its code has arrived (re-rendering then), null
 * before. Draw it with createElement: it is the module's component, the same
 * on every render, which the linter cannot tell from one made in render.
 */
export function useLazyPart<P>(part: LazyPart<P>): ComponentType<P> | null {
  return useSyncExternalStore(part.subscribe, part.loaded, part.loaded)
}

/**
 * Fetches the parts' code once the page has drawn and the browser is idle,
 * so that a click finds it there: the next frame, half a second more, then
 * requestIdleCallback (a timer where the browser has none). Lighthouse counts
 * every request that starts before the largest paint's frame is shown into
 * that paint: right after the page's commit (an idle callback alone ran
 * there) the dialogs' requests still counted. A failure is left to the
 * click to report.
 */
export function usePreloadWhenIdle(...parts: Array<{ preload: () => Promise<unknown> }>) {
  useEffect(() => {
    const run = () => {
      for (const part of parts) part.preload().catch(() => {})
    }
    const idle = globalThis as {
      requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number
      cancelIdleCallback?: (id: number) => void
    }
    let frame = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    let callback: number | undefined
    const whenIdle = () => {
      timer = undefined
      if (typeof idle.requestIdleCallback === 'function') callback = idle.requestIdleCallback(run, { timeout: 5000 })
      else timer = setTimeout(run, 500)
    }
    const later = () => {
      timer = setTimeout(whenIdle, 500)
    }
    if (typeof requestAnimationFrame === 'function') frame = requestAnimationFrame(later)
    else later()
    return () => {
      if (frame) cancelAnimationFrame(frame)
      if (timer !== undefined) clearTimeout(timer)
      if (callback !== undefined) idle.cancelIdleCallback?.(callback)
    }
    // The parts are module-level constants.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
}

/** What a dialog lazyDialog wraps takes: it is driven by `open`. */
export interface LazyDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
}

interface OpenerProps {
  'aria-haspopup'?: 'dialog'
  'aria-expanded'?: boolean
  onClick?: (event: MouseEvent<HTMLElement>) => void
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void
  onFocus?: (event: FocusEvent<HTMLElement>) => void
}

/**
 * A dialog whose code is not part of the page's first load. It takes the
 * wrapped dialog's props and, optionally, `trigger`: the button that opens
 * it, drawn here at once (the same element before and after the code comes,
 * so focus on it stays), which opens the dialog on click and fetches the
 * code on intent (pointer over, focus). Opened before its code has come,
 * the dialog shows a spinner over the page, focus staying on the opener;
 * once the code is there the dialog draws, open, moves focus into itself
 * and gives it back to the opener when it closes (useReturnFocus). Should
 * the code not come (the network), the error popup says so and the dialog
 * closes. `preload` fetches the code (usePreloadWhenIdle).
 */
export function lazyDialog<P extends LazyDialogProps>(load: () => Promise<ComponentType<P>>) {
  const part = lazyPart(load)
  const prefetch = () => void part.preload().catch(() => {})
  function LazyDialog({ trigger, ...rest }: P & { trigger?: ReactElement }) {
    const props = rest as unknown as P
    const Dialog = useLazyPart(part)
    const { open, onOpenChange } = props
    useEffect(() => {
      if (!open || Dialog) return
      let current = true
      part.preload().catch(() => {
        if (!current) return
        reportError({ status: 0, message: 'the dialog could not be loaded' })
        onOpenChange(false)
      })
      return () => {
        current = false
      }
    }, [open, Dialog, onOpenChange])
    const opener =
      trigger &&
      cloneElement(trigger as ReactElement<OpenerProps>, {
        'aria-haspopup': 'dialog',
        'aria-expanded': open,
        onClick: (event) => {
          ;(trigger as ReactElement<OpenerProps>).props.onClick?.(event)
          if (!event.defaultPrevented) onOpenChange(true)
        },
        onPointerEnter: prefetch,
        onFocus: prefetch,
      })
    return (
      <>
        {opener}
        {/* The component is the module's, not one made here: it only arrives later. */}
        {Dialog ? createElement(Dialog, props) : open ? <DialogLoading onClose={() => onOpenChange(false)} /> : null}
      </>
    )
  }
  return Object.assign(LazyDialog, { preload: part.preload })
}

/**
 * What an opened dialog shows while its code comes: the dialog's dimmed
 * backdrop with a spinner, said to screen readers as loading. Focus stays on
 * the opener; Escape closes, as it would the dialog.
 */
export function DialogLoading({ onClose }: { onClose: () => void }) {
  const { t, ready } = useTranslation('common', { useSuspense: false })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onClose])
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/60"
      data-testid="dialog-loading"
      role="status"
      aria-live="polite"
    >
      <SpinnerIcon className="h-6 w-6 animate-spin text-white" />
      <span className="sr-only">{ready ? t('actions.loading') : '…'}</span>
    </div>
  )
}

/** The confirmation dialog (components/confirmation-dialog.tsx) as a lazyDialog. */
export const LazyConfirmationDialog = lazyDialog(() =>
  import('@/components/confirmation-dialog').then((m) => m.ConfirmationDialog),
)
