import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The placeholder the web build writes where a nonce belongs (apps/web/vite.config.ts, `html.cspNonce`: the
 * `<meta property="csp-nonce">` and the `nonce` attributes of the page's script and style tags). The server
 * replaces it with a fresh nonce in every response of the page (web/web.routes.ts).
 */
export const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** A fresh nonce: 128 random bits, base64 (CSP's base64-value). */
export function newCspNonce(): string {
  return crypto.randomBytes(16).toString('base64');
}

/**
 * The web app's Content-Security-Policy (issue 26, item 5). No 'unsafe-inline' anywhere: the page's own tags
 * and the `<style>` elements Ant Design's CSS-in-JS creates carry this response's nonce (the app reads it from
 * the `csp-nonce` meta and hands it to ConfigProvider's `csp`); style values set through the DOM (React's `style`
 * prop) are not inline markup and need nothing. Images come from this server, `data:` and `blob:` URLs, and the
 * object store's origins when browsers fetch files from it (`mediaOrigins`: OSS_BASE_URL, presigned URLs).
 */
export function webAppCsp(nonce: string, mediaOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    ["img-src 'self' data: blob:", ...mediaOrigins].join(' '),
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Browser features no page of this server uses: denied to the page and to anything it could embed. Photos come
 * from file inputs (a phone offers its camera there without any permission); nothing asks for a location,
 * a microphone, sensors or devices.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** One year, subdomains too: what a security review asks for (and the HSTS preload list's minimum). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Headers on every response. `Strict-Transport-Security` only when the request came over HTTPS: on the socket
 * itself, or per `X-Forwarded-Proto` when TRUST_PROXY says a proxy in front sets it (Fastify's `trustProxy`
 * decides `req.protocol`); browsers ignore it over plain HTTP, and a plain-HTTP install must not promise HTTPS.
 */
export function setSecurityHeaders(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'same-origin');
  reply.header('Permissions-Policy', PERMISSIONS_POLICY);
  if (req.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
}
