import { createFileRoute } from '@tanstack/react-router'
import { SigninPage } from '@/features/auth/components/signin-page'

export const Route = createFileRoute('/signin')({
  component: SigninPage,
})
