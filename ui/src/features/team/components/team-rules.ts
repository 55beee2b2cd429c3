import type { Member, Seats } from '@/lib/api/get-members'

// Pure rules of the team page.

/** Every seat is taken (members and pending invitations): nobody more may be invited. */
export function seatsFull(seats: Seats): boolean {
  return seats.used >= seats.limit
}

/** Whether a member is the signed-in user (the members list has no user id of the caller; e-mails are unique). */
export function isSelf(member: Pick<Member, 'email'>, userEmail: string): boolean {
  return member.email.trim().toLowerCase() === userEmail.trim().toLowerCase()
}

/**
 * Whether the account's seats can be changed (issue 38): an active Team
 * plan with no lower plan scheduled for the renewal (the api refuses 409
 * otherwise).
 */
export function teamSeats(subscription: { plan: string; show_status: string; scheduled_plan: string | null }): boolean {
  return subscription.plan === 'TEAM' && subscription.show_status === 'active' && subscription.scheduled_plan === null
}
