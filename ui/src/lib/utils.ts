import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

/**
 * Joins class names. A component's `className` adds classes to the
 * component's own; it never overrides one of them (two classes of the same
 * Tailwind group, such as `rounded-md` and `rounded-full`, would leave the
 * winner to the order of the stylesheet, not to the order here). A
 * component offers a prop for what callers need to change instead
 * (Skeleton's `round`, TableHead's `align`).
 *
 * Production joins only: tailwind-merge's class map cost ~100 ms of a
 * phone's main thread on the first render, and its code ~8 KB gzip of every
 * signed-in page. Outside production (the unit tests, `npm run dev`) each call is
 * checked with tailwind-merge: a conflict is logged and kept in
 * `classConflicts`, and the unit tests' set-up fails the test that made one.
 */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs)
  if (import.meta.env.DEV) checkConflicts(joined)
  return joined
}

/** The conflicts `cn` met outside production, oldest first (see cn). */
export const classConflicts: string[] = []

/** Records and logs the classes of `joined` that tailwind-merge would drop. */
function checkConflicts(joined: string): void {
  const kept = new Set(twMerge(joined).split(/\s+/))
  const dropped = joined.split(/\s+/).filter((c) => c !== '' && !kept.has(c))
  if (dropped.length === 0) return
  const conflict = `${dropped.join(', ')} overridden in "${joined}"`
  classConflicts.push(conflict)
  console.error(`cn: conflicting Tailwind classes: ${conflict}`)
}
