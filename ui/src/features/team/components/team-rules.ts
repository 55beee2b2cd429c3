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
