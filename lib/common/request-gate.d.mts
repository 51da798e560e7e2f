/** See request-gate.mjs. */
export const CLIENT_HEADER: 'x-assay-client';
export interface GateSettings {
  trustedProxies: string[];
  maxJsonBytes: number;
  /** How long the server keeps an idle connection (ASSAY_KEEP_ALIVE_SECONDS, default 65 s). */
  keepAliveMs: number;
}
export function gateSettings(env: Record<string, string | undefined>): GateSettings;
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trustedProxies: string[]): string;
export interface GateRefusal {
  status: number;
  code: 'bad-request' | 'payload-too-large';
  message: string;
}
export function gateRefusal(url: string, headers: Record<string, string | string[] | undefined>, settings: GateSettings): GateRefusal | null;
