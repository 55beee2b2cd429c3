import { createFileRoute } from '@tanstack/react-router'
import { RequestPasswordResetPage } from '@/features/auth/components/request-password-reset-page'

export const Route = createFileRoute('/auth/request-password-reset')({
  component: RequestPasswordResetPage,
})
