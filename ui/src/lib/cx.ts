import { clsx, type ClassValue } from 'clsx'

/**
 * Joins class names without Tailwind merging: only for the few primitives a
 * first visit to /signin downloads (brand, button, card, input, label,
 * native-select, form-field, toast), where tailwind-merge would cost ~8 KB
 * gzip of the 150 KB budget. A `className` given to these must add classes,
 * not fight their own. Everything else uses `cn` from lib/utils.
 */
export function cx(...inputs: ClassValue[]): string {
  return clsx(inputs)
}
