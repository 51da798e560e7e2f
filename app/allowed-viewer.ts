import { forbidden, unauthorized } from 'next/navigation';
import { may, type Operation, type Viewer } from '@/lib/services/access';
import { currentViewer } from './current-viewer';

/**
 * The viewer of a page or server action that only `operation` allows; otherwise it ends as a refusal, not an error:
 * 401 with the sign-in page (nobody signed in) or 403 with the forbidden page (a role too low), through Next.js's
 * auth interrupts. An AppError thrown from a server action was answered 500, which told a reader replaying an admin's
 * action that the server had failed; a page checks before anything is read for it. Called before any try block, so
 * that the interrupt is not caught as an error.
 */
export async function allowedViewer(operation: Operation): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!may(viewer, operation)) {
    if (viewer.user) forbidden();
    unauthorized();
  }
  return viewer;
}
