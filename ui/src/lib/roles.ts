// The roles of an account's members (issue 26) and what each may do in the
// UI. The api decides (api/roles.go); the UI only hides what a role may not
// do, with the same rules: the owner may do everything (money: billing,
// plans, ownership); admins run the team and the account's name and logo;
// members use the product, keep their own details and read the plan status.

export const ROLES = ['owner', 'admin', 'member'] as const
export type Role = (typeof ROLES)[number]
/** The roles an invitation or a role change may give: ownership only moves by a transfer. */
export const INVITABLE_ROLES = ['admin', 'member'] as const
export type InvitableRole = (typeof INVITABLE_ROLES)[number]

const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 }

/** Whether `role` may do what `min` may. */
export function atLeast(role: Role, min: Role): boolean {
  return RANK[role] >= RANK[min]
}

/** Billing, plans and ownership: the owner's. */
export const canManageBilling = (role: Role) => role === 'owner'
/** Invitations, roles and removals: owner and admins. */
export const canManageTeam = (role: Role) => atLeast(role, 'admin')
/** The account's name and logo: owner and admins. */
export const canEditAccount = (role: Role) => atLeast(role, 'admin')

/**
 * Whether `actor` may change the role of, or remove, a member of role
 * `target`: owners and admins manage everyone but the owner, and never
 * themselves (leaving is its own rule, mayLeave).
 */
export function managesMember(actor: Role, target: Role, self: boolean): boolean {
  return !self && canManageTeam(actor) && target !== 'owner'
}

/** Anyone but the owner may leave (the owner transfers the ownership first). */
export const mayLeave = (role: Role) => role !== 'owner'

/** The areas a role may be refused, each with its own friendly page. */
export type RestrictedArea = 'billing'
