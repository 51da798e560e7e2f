import { headers } from 'next/headers';
import { forbidden, unauthorized } from 'next/navigation';
import { AppError } from '@/lib/common/errors';
import { type Operation, requireAccess, type Viewer } from '@/lib/services/access';

/**
 * The viewer a server action runs for, if they may do `operation`; otherwise the action ends as a refusal, not an
 * error: 401 (sign in) or 403 (a role too low), with the sign-in or forbidden page (Next.js's auth interrupts). An
 * AppError thrown from an action is otherwise answered 500, which told a reader replaying an admin's action that the
 * server had failed. Called before any try block of the action, so that the interrupt is not caught as an error.
 */
export async function actionViewer(operation: Operation): Promise<Viewer> {
  try {
    return await requireAccess(await headers(), operation);
  } catch (error) {
    if (error instanceof AppError && error.code === 'unauthorized') unauthorized();
    if (error instanceof AppError && error.code === 'forbidden') forbidden();
    throw error;
  }
}
