// The checkout page: live quotes from the promocodes WebAssembly module; hold, capture and release
// through the Worker's demo routes.
//
// Money never goes through a JS number: prices are decimal strings, line amounts and the basket total
// are summed in integer minor units with BigInt, every discount is computed by the wasm module (the
// core's maths), and amounts are shown with Intl.NumberFormat, which formats decimal strings exactly.
//
// A code's definition is fetched once per normalised code and parsed once (`PromoCode.parse`); from
// then on every keystroke and quantity change re-quotes in the browser with `promo.quote(...)`, with no
// network call. What the browser cannot know, whether a named customer may still use a code (its
// audience, the customer's own count), the Worker is asked once per code and customer (`/demo/quote`).
//
// Paying is three steps: Pay takes a hold (`/demo/hold`, the use is reserved for a few minutes), then
// Confirm payment captures it pinned to the quote shown (`/demo/pay`), or Cancel releases it
// (`/demo/cancel`). Without a code there is nothing to reserve: Pay and Confirm make no request.
// What the core knows (the hold's bounds, a currency's minor units, the definition's fields, which
// refusals are about the basket, why a text is not a code) the page asks the module; it repeats none.
//
// Several codes ("Add another code", up to the core's 5): each code's definition is fetched and
// parsed as above; the codes together are quoted with `PromoStack.parse([definitions])` (parsed
// again only when the list of codes or a definition changes) and `stack.quote(basket, options)`,
// which refuses exactly as the Worker would (a code that cannot combine: `not_combinable`, naming the
// other code). Each code's part, or its refusal, is shown next to its field; Pay, Confirm and Cancel
// send `codes` to the same demo routes, which hold, capture and release every code or none.
//
// A code never keeps the buyer from paying: one that cannot be used is left out (which codes apply
// is the core's to say: checkout/stack.js quotes the stack without the codes it refuses), named next
// to its field and on Pay ("Pay €76.90 without LONER"), and never sent; Pay holds the others.
//
// Automatic promotions (no code to type): the list of GET /v1/automatic is fetched once the module
// is loaded, and every quote offers them to the PromoStack beside the typed codes (none typed, one or
// several); the summary says "Free shipping applied automatically." or "Spend €12.10 more for free
// shipping.", and Pay sends `"automatic": true`, so that the Worker decides them again as it holds.
//
// The page's modules (public/checkout/): page.js (its elements and state), basket.js (the basket from
// the quantities, in minor units), summary.js (the order summary), codes.js (the code fields, lookups,
// customer checks), quote.js (quoting one code or a stack), stack.js (the codes of a stack that
// apply), sentences.js (the buyer's words),
// outcome.js (the outcome panel), pay.js (Pay, Confirm, Cancel), automatic.js (the automatic
// promotions) and worker.js (the demo routes); the
// shared helpers for money, formatting and the DOM are in public/lib/.
import init, { minorUnits } from './pkg/promocodes.js';
import { $ } from './lib/dom.js';
import { rows, shop, show, state, ui } from './checkout/page.js';
import { addCodeField, clearCodes, refresh, scheduleLookup, typedCodes } from './checkout/codes.js';
import { onInput, requote } from './checkout/quote.js';
import { render, setPhase } from './checkout/summary.js';
import { clearOutcome } from './checkout/outcome.js';
import { pay } from './checkout/pay.js';
import { loadAutomatic } from './checkout/automatic.js';

// ---- wiring ----

ui.basket.addEventListener('input', onInput);
ui.customer.addEventListener('input', onInput);
// Every code field, the first and the added ones: each looks its own code up.
$('codes').addEventListener('input', (event) => {
  if (!event.target.classList.contains('code-input')) return;
  onInput();
  scheduleLookup(event.target);
});
ui.addCode.addEventListener('click', () => {
  state.interacted = true;
  addCodeField();
});
ui.pay.addEventListener('click', pay);
ui.checkAgain.addEventListener('click', () => {
  state.interacted = true;
  for (const code of typedCodes()) refresh(code);
  requote();
});
// A new order starts afresh: without the last order's codes (the customer and the basket stay).
ui.newOrder.addEventListener('click', () => {
  clearOutcome();
  setPhase('shopping');
  clearCodes();
  requote();
  ui.code.focus();
});

for (const row of rows) row.priceCell.textContent = show({ amount: row.price, currency: shop.currency });

try {
  await init();
  shop.digits = minorUnits(shop.currency);
  await loadAutomatic();
  state.ready = true;
  document.documentElement.dataset.ready = 'true';
  requote();
  scheduleLookup();
} catch (err) {
  render({ basket: null, message: `The quote module failed to load: ${err.message}`, kind: 'error' });
}
