import { describe, expect, it } from 'vitest';
import { clientAddress, gateRefusal, gateSettings } from './request-gate.mjs';

const settings = gateSettings({});

describe('the request gate', () => {
  it('takes the client from the socket, never from a header a client sends, unless its peer is a trusted proxy', () => {
    // No trusted proxy (the default): X-Forwarded-For is anyone's to write, so it is never read.
    expect(clientAddress('203.0.113.9', '198.51.100.1', [])).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.1', '198.51.100.1', [])).toBe('127.0.0.1');
    expect(clientAddress(undefined, undefined, [])).toBe('unknown');
    // Behind a trusted proxy: the nearest address that is not a trusted proxy, read from the right.
    const trusted = gateSettings({ ASSAY_TRUSTED_PROXIES: '10.0.0.2, loopback' }).trustedProxies;
    expect(clientAddress('10.0.0.2', '198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.0.0.2', trusted)).toBe('198.51.100.1');
    // A spoofed left-most entry buys nothing: the proxy appended the real address on the right.
    expect(clientAddress('10.0.0.2', 'spoofed, 198.51.100.7', trusted)).toBe('198.51.100.7');
    // A client that is not the trusted proxy cannot name anybody.
    expect(clientAddress('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9');
    // Only proxies on the path: the proxy itself.
    expect(clientAddress('10.0.0.2', '', trusted)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', 'not-an-address', trusted)).toBe('10.0.0.2');
  });

  it('refuses a bad setting with the variable named', () => {
    expect(() => gateSettings({ ASSAY_TRUSTED_PROXIES: 'proxy.example' })).toThrow(/ASSAY_TRUSTED_PROXIES/);
    expect(() => gateSettings({ ASSAY_MAX_JSON_KB: 'lots' })).toThrow(/ASSAY_MAX_JSON_KB/);
    expect(gateSettings({ ASSAY_MAX_JSON_KB: '64' }).maxJsonBytes).toBe(65_536);
    expect(settings.maxJsonBytes).toBe(256 * 1024);
    expect(() => gateSettings({ ASSAY_KEEP_ALIVE_SECONDS: '0' })).toThrow(/ASSAY_KEEP_ALIVE_SECONDS/);
    expect(gateSettings({ ASSAY_KEEP_ALIVE_SECONDS: '90' }).keepAliveMs).toBe(90_000);
    // Longer than the 60 s idle timeout of most balancers, so that they close idle connections, not the server.
    expect(settings.keepAliveMs).toBeGreaterThan(60_000);
  });

  it('refuses a body over the limit, or of unknown length, before it is read', () => {
    const json = { 'content-type': 'application/json' };
    expect(gateRefusal('/api/answer', { ...json, 'content-length': String(50 * 1024 * 1024) }, settings)).toMatchObject({
      status: 413,
      code: 'payload-too-large',
    });
    expect(gateRefusal('/api/answer', { ...json, 'content-length': '1e9' }, settings)?.status).toBe(413);
    expect(gateRefusal('/api/auth/sign-in/email', { ...json, 'transfer-encoding': 'chunked' }, settings)?.status).toBe(411);
    // Whatever the type says: a body is a body.
    expect(gateRefusal('/api/answers', { 'content-type': 'text/plain', 'content-length': '300000' }, settings)?.status).toBe(413);
    expect(gateRefusal('/api/answer', { ...json, 'content-length': '2000' }, settings)).toBeNull();
    expect(gateRefusal('/library', {}, settings)).toBeNull();
    // The upload route counts its own stream; server actions have Next.js's own cap.
    expect(gateRefusal('/api/import', { 'content-type': 'multipart/form-data', 'content-length': '900000000' }, settings)).toBeNull();
    expect(gateRefusal('/', { 'next-action': 'abc', 'content-length': '500000' }, settings)).toBeNull();
  });

  it('refuses a control character in any query, whatever the request carries', () => {
    for (const headers of [{}, { 'content-type': 'application/json' }, { 'content-type': 'text/plain', 'content-length': '0' }]) {
      expect(gateRefusal('/library?q=a%00b', headers, settings)).toMatchObject({ status: 400, message: expect.stringMatching(/control characters/) });
      expect(gateRefusal('/api/answers?q=%00', headers, settings)?.status).toBe(400);
      expect(gateRefusal('/library?q=tab%09and%0Anewline', headers, settings)).toBeNull();
    }
  });
});
