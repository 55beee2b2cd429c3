import {
  cloneElement,
  lazy,
  Suspense,
  useState,
  type ComponentType,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
} from 'react'

/** What the body of a deferred menu receives besides its own props. */
export interface MenuBodyProps {
  /** The trigger as drawn, for the menu's trigger (asChild). */
  trigger: ReactElement
  /** Open at mount: the user has just asked for the menu. */
  defaultOpen: boolean
}

interface TriggerHandlers {
  'aria-haspopup'?: 'menu'
  'aria-expanded'?: boolean
  onPointerEnter?: () => void
  onFocus?: () => void
  onPointerDown?: (event: PointerEvent) => void
  onKeyDown?: (event: KeyboardEvent) => void
}

/**
 * A dropdown menu whose code (Radix, its positioning) is not part of the
 * page's first load: the trigger is drawn at once, the menu's chunk is
 * fetched on intent (pointer over the trigger, or focus), and a press
 * (pointer down, Enter, Space, ArrowDown) mounts the real menu, open.
 * `load` resolves to the body: a component that renders the whole menu with
 * `trigger` as its trigger, opened when `defaultOpen`.
 */
export function deferredMenu<P extends object>(load: () => Promise<ComponentType<P & MenuBodyProps>>) {
  const Body = lazy(() => load().then((component) => ({ default: component })))
  function DeferredMenu({ trigger, ...props }: P & { trigger: ReactElement }) {
    const [asked, setAsked] = useState(false)
    const prefetch = () => void load().catch(() => {})
    const placeholder = cloneElement(trigger as ReactElement<TriggerHandlers>, {
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onPointerEnter: prefetch,
      onFocus: prefetch,
      onPointerDown: (event) => {
        if (event.button !== 0 || event.ctrlKey) return
        event.preventDefault()
        setAsked(true)
      },
      onKeyDown: (event) => {
        if (event.key !== 'Enter' && event.key !== ' ' && event.key !== 'ArrowDown') return
        event.preventDefault()
        setAsked(true)
      },
    })
    return (
      <Suspense fallback={placeholder}>
        {asked ? <Body {...(props as P)} trigger={trigger} defaultOpen /> : placeholder}
      </Suspense>
    )
  }
  return DeferredMenu
}
