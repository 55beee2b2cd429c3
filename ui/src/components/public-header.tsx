import { Link } from '@tanstack/react-router'
import { Brand } from '@/components/brand'
import { LanguagePicker } from '@/components/language-picker'

/** The header of the public screens (sign-in, legal pages): the brand home link and the language picker. */
export function PublicHeader() {
  return (
    <header className="flex h-12 items-center justify-between px-4">
      <Link to="/" className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        <Brand />
      </Link>
      <LanguagePicker />
    </header>
  )
}
