import type { Database } from './database.ts';

/** The User table's reads for the app (writes go through better-auth: sign-up, and its admin plugin for roles). */
export const listUsers = (db: Database) =>
  db.prisma.user.findMany({ orderBy: { createdAt: 'asc' }, select: { id: true, name: true, email: true, role: true, createdAt: true, banned: true } });

export const usersByIds = (db: Database, ids: string[]) =>
  db.prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true, role: true } });

export const userCount = (db: Database) => db.prisma.user.count();
