import { createAccessControl } from 'better-auth/plugins/access';
import { adminAc, defaultStatements } from 'better-auth/plugins/admin/access';

/**
 * Who may do what. Three roles in rising order: a reader reads and asks, an expert also grades the campaigns they
 * are assigned to, an admin also runs imports, downloads, evaluations and campaigns and manages accounts. The
 * same table drives better-auth's admin plugin (which roles exist, who may change roles) and the app's own checks.
 */
export const ROLES = ['reader', 'expert', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** Whether `role` includes everything `needed` may do. */
export const roleAtLeast = (role: Role | null, needed: Role): boolean => role !== null && ROLES.indexOf(role) >= ROLES.indexOf(needed);

/** The app's operations and the least role each needs (the one place a route or action looks this up). */
export const ACCESS = {
  read: 'reader',
  ask: 'reader',
  // Evaluation runs, their question sets and gold answers: readers, but anonymous visitors only when configured so
  // (ASSAY_EVALUATIONS_VISIBLE; viewer.ts says who is denied what beyond their role).
  evaluations: 'reader',
  grade: 'expert',
  import: 'admin',
  evaluate: 'admin',
  curate: 'admin', // graph merges, paper versions
  campaigns: 'admin',
  users: 'admin',
} as const satisfies Record<string, Role>;
export type Operation = keyof typeof ACCESS;

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  reader: 'reads papers and answers, asks questions',
  expert: 'also grades the campaigns they are assigned to',
  admin: 'also imports, runs evaluations and campaigns, manages accounts',
};

const statements = { ...defaultStatements } as const;
const accessControl = createAccessControl(statements);

/** better-auth's view of the roles: only admin may list users or change roles. */
export const authRoles = {
  reader: accessControl.newRole({ user: [], session: [] }),
  expert: accessControl.newRole({ user: [], session: [] }),
  admin: accessControl.newRole(adminAc.statements),
};
export const authAccessControl = accessControl;
