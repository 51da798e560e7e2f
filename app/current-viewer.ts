import { headers } from 'next/headers';
import { cache } from 'react';
import { viewerFor } from '@/lib/services/access';

/**
 * The viewer of the request being rendered, looked up once per request however many server components ask (the
 * layout's header and the page both do): React's `cache` keeps the session lookup to one database read.
 */
export const currentViewer = cache(async () => viewerFor(await headers()));
