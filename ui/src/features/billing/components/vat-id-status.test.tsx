import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { VatIdStatus } from './vat-id-status'

// Issue 37 item 8: the "Invalid" badge's text meets WCAG AA (4.5:1) on its
// background. The colours of the classes the badges use (Tailwind's palette
// as sRGB, --color-destructive from index.css; "/10" is 10 % over white).
const WHITE = '#ffffff'
const PALETTE: Record<string, string> = {
  destructive: '#dc2626',
  'red-50': '#fef2f2',
  'red-800': '#991b1b',
  'emerald-50': '#ecfdf5',
  'emerald-800': '#065f46',
  'amber-50': '#fffbeb',
  'amber-900': '#78350f',
}

function rgb(hex: string): number[] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
}

function colour(token: string): number[] {
  const [name, alpha] = token.split('/')
  const hex = PALETTE[name]
  if (!hex) throw new Error(`unknown colour ${token}`)
  if (!alpha) return rgb(hex)
  const a = Number(alpha) / 100
  return rgb(hex).map((c, i) => c * a + rgb(WHITE)[i] * (1 - a))
}

function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

function contrastOf(badge: HTMLElement): number {
  const classes = badge.className.split(/\s+/)
  const text = classes.find((c) => c.startsWith('text-') && c !== 'text-xs')!.slice('text-'.length)
  const bg = classes.find((c) => c.startsWith('bg-'))!.slice('bg-'.length)
  const [l1, l2] = [luminance(colour(text)), luminance(colour(bg))].sort((a, b) => b - a)
  return (l1 + 0.05) / (l2 + 0.05)
}

describe('VatIdStatus badges', () => {
  it.each([
    ['invalid', 'Invalid'],
    ['verified', 'Verified'],
    ['pending', 'Checking…'],
  ] as const)('%s: its text meets 4.5:1', (status, label) => {
    render(<VatIdStatus status={status} vatId="BE0123456789" />)
    expect(contrastOf(screen.getByText(label))).toBeGreaterThanOrEqual(4.5)
  })
})
