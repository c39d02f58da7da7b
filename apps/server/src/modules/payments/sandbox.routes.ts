import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SandboxOrderRow } from '../../db/schema.js';
import { SANDBOX_CHECKOUT_PATH, type SandboxProvider } from './sandbox.provider.js';
import { escapeHtml } from '../../lib/html.js';

const OrderParamSchema = z.object({ orderId: z.string().regex(/^[A-Za-z0-9_-]{1,63}$/) });
const ActionSchema = z.object({ action: z.enum(['pay', 'fail', 'cancel', 'abandon']) });

const rupees = (paise: number) => `₹${(paise / 100).toFixed(2)}`;

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  background:#f3f0ea;color:#1d1b19;display:flex;flex-direction:column;align-items:center}
.banner{width:100%;background:repeating-linear-gradient(135deg,#ffd23f 0 18px,#f5c400 18px 36px);
  color:#1d1b19;text-align:center;padding:14px 12px;border-bottom:3px solid #1d1b19}
.banner strong{display:block;font-size:1.6rem;letter-spacing:.06em}
.banner span{font-weight:600}
main{width:100%;max-width:420px;padding:20px 16px 32px}
.card{background:#fff;border-radius:16px;padding:20px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
.merchant{margin:0;color:#6b645c;font-size:.9rem;text-transform:uppercase;letter-spacing:.08em}
.amount{margin:.2em 0;font-size:2.6rem;line-height:1.1}
.venue{margin:0 0 12px;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0 0 20px;font-size:.9rem;color:#4a443e}
dd{margin:0;word-break:break-all}
form{display:grid;gap:12px}
button,.back{display:block;width:100%;min-height:52px;border-radius:12px;border:2px solid transparent;
  font:inherit;font-weight:700;font-size:1.05rem;cursor:pointer;text-align:center;text-decoration:none;padding:12px}
.pay{background:#1a7f37;color:#fff}
.fail{background:#fff;color:#b42318;border-color:#b42318}
.abandon{background:#fff;color:#4a443e;border-color:#c9c2b8}
.back{background:#1d1b19;color:#fff;line-height:24px}
button:focus-visible,.back:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.state{font-size:1.2rem;font-weight:700;margin:0 0 16px}
.note{color:#6b645c;font-size:.85rem;margin-top:20px}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div class="banner" role="note"><strong>TEST PAYMENT</strong><span>no money moves</span></div>
<main>${body}
<p class="note">Flashbooth sandbox: this page stands in for the payment provider so the whole
payment flow can be tried without a real payment.</p>
</main>
</body>
</html>`;
}

function orderPage(order: SandboxOrderRow, now: Date): string {
  const amount = rupees(order.amountPaise);
  const venue = order.description.replace(/^Flashbooth photo:\s*/, '');
  const summary = `
<p class="merchant">Flashbooth</p>
<h1 class="amount">${amount}</h1>
<p class="venue">${escapeHtml(venue)}</p>
<dl><dt>Order</dt><dd>${escapeHtml(order.orderId)}</dd>
<dt>Expires</dt><dd>${order.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC</dd></dl>`;
  if (order.state === 'PENDING' && order.expiresAt.getTime() > now.getTime()) {
    const action = `${SANDBOX_CHECKOUT_PATH}/${encodeURIComponent(order.orderId)}`;
    return page(
      `Test payment ${amount} — Flashbooth sandbox`,
      `<section class="card" aria-label="Test payment">${summary}
<form method="post" action="${escapeHtml(action)}">
<button class="pay" name="action" value="pay">Pay ${amount}</button>
<button class="fail" name="action" value="fail">Make this payment fail</button>
<button class="abandon" name="action" value="cancel">Cancel and go back</button>
</form></section>`,
    );
  }
  const outcome =
    order.state === 'COMPLETED'
      ? 'This test payment is complete.'
      : order.cancelled
        ? 'This test payment was cancelled.'
        : 'This test payment did not go through.';
  return page(
    'Test payment — Flashbooth sandbox',
    `<section class="card" aria-label="Test payment">${summary}
<p class="state">${outcome}</p>
<a class="back" href="${escapeHtml(order.redirectUrl)}">Return to Flashbooth</a></section>`,
  );
}

/** Where the page's form may send the browser: here, and the order's return address. */
function securityHeaders(redirectUrl: string | undefined) {
  let returnOrigin = '';
  try {
    if (redirectUrl) returnOrigin = ` ${new URL(redirectUrl).origin}`;
  } catch {
    returnOrigin = '';
  }
  return {
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${returnOrigin}; base-uri 'none'; frame-ancestors 'none'`,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  };
}

/**
 * The sandbox provider's checkout page (server-rendered HTML, mobile first): Pay, Fail, or
 * Abandon; each returns to the order's redirect URL, as a real provider does.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncZod<{
  provider: SandboxProvider;
  now: () => Date;
}> = async (app, { provider, now }) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  const notFoundPage = page(
    'Test payment not found — Flashbooth sandbox',
    '<section class="card"><p class="state">This test payment does not exist.</p></section>',
  );

  app.get(
    '/:orderId',
    {
      schema: {
        tags: ['sandbox payments'],
        summary: 'The sandbox checkout page (HTML)',
        params: OrderParamSchema,
      },
    },
    async (request, reply) => {
      const order = await provider.order(request.params.orderId);
      reply.headers(securityHeaders(order?.redirectUrl)).type('text/html; charset=utf-8');
      if (!order) return reply.status(404).send(notFoundPage);
      return reply.send(orderPage(order, now()));
    },
  );

  app.post(
    '/:orderId',
    {
      schema: {
        tags: ['sandbox payments'],
        summary:
          'Pay, fail or cancel a sandbox order (or abandon it: left pending), then return to its redirect URL',
        params: OrderParamSchema,
        body: ActionSchema,
      },
    },
    async (request, reply) => {
      const order = await provider.act(request.params.orderId, request.body.action);
      if (!order) {
        return reply
          .status(404)
          .headers(securityHeaders(undefined))
          .type('text/html; charset=utf-8')
          .send(notFoundPage);
      }
      return reply.headers(securityHeaders(order.redirectUrl)).redirect(order.redirectUrl, 303);
    },
  );
};
