import { forbidden, unauthorized } from 'next/navigation';
import { may, type Operation, type Viewer } from '@/lib/services/access';
import { currentViewer } from './current-viewer';

/**
 * The viewer of a page that shows only what `operation` allows (the evaluation pages: runs, questions, gold answers),
 * or, before anything is read for it, the sign-in page with 401 (nobody signed in) or the forbidden page with 403.
 */
export async function pageViewer(operation: Operation): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!may(viewer, operation)) {
    if (viewer.user) forbidden();
    unauthorized();
  }
  return viewer;
}
