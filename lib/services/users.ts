import { listUsers } from '../db/users.ts';
import { appDatabase } from './app.ts';

/** Every account with its role (the admin's Users page). */
export async function accounts() {
  return listUsers(await appDatabase());
}
