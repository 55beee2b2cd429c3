import { clsx, type ClassValue } from 'clsx'

/**
 * Joins class names. There is deliberately no Tailwind class merging (it
 * would cost ~9 KB gzip on the sign-in page): a `className` passed to a
 * primitive must add classes, not fight the primitive's own ones.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs)
}
