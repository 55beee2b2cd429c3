import { createFileRoute } from '@tanstack/react-router'
import { SigninVerifyPage } from '@/features/auth/components/signin-verify-page'

// The second step of a sign-in with a second factor (issue 29), /signin/verify
// (not nested in /signin): the challenge is in sessionStorage (signin-mfa.ts).
export const Route = createFileRoute('/signin_/verify')({
  component: SigninVerifyPage,
})
