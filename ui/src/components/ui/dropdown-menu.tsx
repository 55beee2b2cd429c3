import * as React from 'react'
import * as DropdownMenuPrimitive from '@radix-ui/react-dropdown-menu'
import { Check } from 'lucide-react'
import { cn } from '@/lib/utils'

export const DropdownMenu = DropdownMenuPrimitive.Root
export const DropdownMenuTrigger = DropdownMenuPrimitive.Trigger
export const DropdownMenuGroup = DropdownMenuPrimitive.Group
export const DropdownMenuRadioGroup = DropdownMenuPrimitive.RadioGroup

/** The type-ahead search resets after this pause (SPEC §9; Radix's own waits 1000 ms). */
export const TYPEAHEAD_RESET_MS = 350

/**
 * Type-ahead over the menu's items with a 350 ms reset. It handles printable
 * keys itself and marks them handled, so Radix's (1 s) search does not run.
 */
function useTypeahead() {
  const search = React.useRef('')
  const timer = React.useRef<number | undefined>(undefined)
  React.useEffect(() => () => window.clearTimeout(timer.current), [])
  return (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return
    if (event.key === ' ' && search.current === '') return // space selects
    event.preventDefault()
    search.current += event.key.toLowerCase()
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => (search.current = ''), TYPEAHEAD_RESET_MS)
    const items = Array.from(
      event.currentTarget.querySelectorAll<HTMLElement>(
        ':is([role="menuitem"], [role="menuitemradio"]):not([data-disabled])',
      ),
    )
    const current = items.indexOf(document.activeElement as HTMLElement)
    // One key repeated cycles through the items starting with it; more keys search from the current one.
    const repeated = [...search.current].every((c) => c === search.current[0])
    const text = repeated ? search.current[0] : search.current
    const start = repeated ? current + 1 : Math.max(current, 0)
    const ordered = [...items.slice(start), ...items.slice(0, start)]
    ordered.find((item) => (item.textContent ?? '').trim().toLowerCase().startsWith(text))?.focus()
  }
}

/**
 * While an open (modal) menu hides the rest of the page from assistive
 * technology (Radix sets aria-hidden on it), the rest is made inert too, so
 * that nothing hidden can take focus (issue 37; axe's aria-hidden-focus on
 * the phone menu). Given back when the menu closes.
 */
function useInertOutside(modal: boolean) {
  // A state, not a ref: the content mounts after its root (Radix's presence and popper).
  const [menu, setMenu] = React.useState<HTMLDivElement | null>(null)
  React.useEffect(() => {
    if (!modal || !menu) return
    const outside = [...document.body.children].filter(
      (el): el is HTMLElement => el instanceof HTMLElement && !el.contains(menu) && !el.hasAttribute('inert'),
    )
    for (const el of outside) el.setAttribute('inert', '')
    return () => {
      for (const el of outside) el.removeAttribute('inert')
    }
  }, [modal, menu])
  return setMenu
}

export function DropdownMenuContent({
  className,
  sideOffset = 4,
  onKeyDown,
  modal = true,
  ...props
}: React.ComponentProps<typeof DropdownMenuPrimitive.Content> & {
  /** As the menu's root: false for a menu that leaves the page usable (none here yet). */
  modal?: boolean
}) {
  const typeahead = useTypeahead()
  const ref = useInertOutside(modal)
  return (
    <DropdownMenuPrimitive.Portal>
      <DropdownMenuPrimitive.Content
        ref={ref}
        sideOffset={sideOffset}
        onKeyDown={(event) => {
          onKeyDown?.(event)
          if (!event.defaultPrevented) typeahead(event)
        }}
        className={cn('z-50 min-w-40 overflow-hidden rounded-md border bg-popover p-1 text-popover-foreground shadow-md', className)}
        {...props}
      />
    </DropdownMenuPrimitive.Portal>
  )
}

export function DropdownMenuItem({ className, ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.Item>) {
  return (
    <DropdownMenuPrimitive.Item
      className={cn(
        'relative flex cursor-default select-none items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none transition-colors focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 [&_svg]:size-4',
        className,
      )}
      {...props}
    />
  )
}

/** One choice of a radio group (role menuitemradio, aria-checked): a check mark shows the chosen one. */
export function DropdownMenuRadioItem({
  className,
  children,
  ...props
}: React.ComponentProps<typeof DropdownMenuPrimitive.RadioItem>) {
  return (
    <DropdownMenuPrimitive.RadioItem
      className={cn(
        'relative flex cursor-default select-none items-center gap-2 rounded-sm py-1.5 pl-8 pr-2 text-sm outline-none transition-colors focus:bg-accent focus:text-accent-foreground data-[disabled]:pointer-events-none data-[disabled]:opacity-50 [&_svg]:size-4',
        className,
      )}
      {...props}
    >
      <span className="absolute left-2 flex size-4 items-center justify-center">
        <DropdownMenuPrimitive.ItemIndicator>
          <Check aria-hidden="true" />
        </DropdownMenuPrimitive.ItemIndicator>
      </span>
      {children}
    </DropdownMenuPrimitive.RadioItem>
  )
}

/** A menu's non-interactive label: a heading (the signed-in user's name), or with `caption` a small muted one over a group. */
export function DropdownMenuLabel({
  className,
  caption = false,
  ...props
}: React.ComponentProps<typeof DropdownMenuPrimitive.Label> & { caption?: boolean }) {
  return (
    <DropdownMenuPrimitive.Label
      className={cn('px-2 py-1.5', caption ? 'text-xs font-medium text-muted-foreground' : 'text-sm font-semibold', className)}
      {...props}
    />
  )
}

export function DropdownMenuSeparator({ className, ...props }: React.ComponentProps<typeof DropdownMenuPrimitive.Separator>) {
  return <DropdownMenuPrimitive.Separator className={cn('-mx-1 my-1 h-px bg-muted', className)} {...props} />
}
