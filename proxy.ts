import { type NextRequest, NextResponse } from 'next/server';
import { controlCharRefusal } from './lib/common/params';

/**
 * Before any page or route handler: a query string holding a control character (NUL above all) is refused with 400,
 * as such text in a JSON body is (lib/common/params.ts), instead of being read with the character dropped. Route
 * handlers (`/api/…`) answer JSON; pages a short page saying why.
 */
export function proxy(request: NextRequest) {
  if (!request.nextUrl.search) return;
  const refusal = controlCharRefusal(request.nextUrl.searchParams);
  if (!refusal) return;
  if (request.nextUrl.pathname.startsWith('/api/')) return NextResponse.json({ error: refusal, code: 'bad-request' }, { status: 400 });
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad request · Assay</title></head><body><h1>Bad request</h1><p>${refusal.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}.</p><p><a href="/">Back to Assay</a></p></body></html>`;
  return new NextResponse(page, {
    status: 400,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
    },
  });
}

/**
 * Only requests without a body (no Content-Type: pages, GET routes; the routes that take a body refuse control
 * characters in it themselves): with a proxy in its way Next.js reads a request's body before the route does, and an
 * upload was then read whole instead of being cut at ASSAY_MAX_UPLOAD_MB as it streams. Nor the build's static files
 * or the health check.
 */
export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image|favicon.ico|screenshots/|api/health$).*)', missing: [{ type: 'header', key: 'content-type' }] }],
};
