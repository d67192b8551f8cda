// The order summary: the basket read from the table, each line's and the order's amounts, the
// message under them, and which buttons and fields can be used in each phase.
import { priceBasket } from './basket.js';
import { codeFields, MAX_CODES, minus, rows, shippingRow, shop, show, state, ui, voice } from './page.js';
import { isZero } from '../lib/money.js';
import { payLabel } from './sentences.js';
import { markInvalid } from '../lib/dom.js';

/**
 * Reads the table: the lines to quote (quantity 0 left out), the shipping, the subtotal and the total,
 * or an error sentence for a quantity that is not a whole number from 0 to 99 (that field is marked).
 */
export function readBasket() {
  const basket = priceBasket({
    lines: rows.map((row) => ({ ...row, quantity: row.input.value })),
    shipping: ui.basket.dataset.shipping || null,
    currency: shop.currency,
    digits: shop.digits,
  });
  rows.forEach((row, i) => {
    const amount = basket.amounts[i];
    markInvalid(row.input, amount === null);
    row.amount.textContent = amount === null ? '–' : show(amount);
  });
  shippingRow.amount.textContent = basket.shipping === null ? '–' : show(basket.shipping);
  return basket;
}

// Shows each line's part of the discount (and the shipping's), from a quote with lines, or none.
function paintDiscounts(quote) {
  const parts = new Map((quote?.lines ?? []).map((line) => [line.sku, line.discount]));
  for (const row of rows) {
    const part = parts.get(row.sku);
    row.discount.textContent = isZero(part) ? '' : minus(part);
  }
  const shipping = quote?.shipping?.discount;
  shippingRow.discount.textContent = isZero(shipping) ? '' : minus(shipping);
}

/**
 * Renders the summary. `kind` is the state of the quote (styled, and read by the tests); `announce`
 * is what a screen reader should hear once this outcome has stood for a moment (null: nothing yet).
 */
export function render({ basket, quote = null, message, kind, current = null, announce = null, checkAgain = false }) {
  ui.subtotal.textContent = basket ? show(basket.subtotal) : '–';
  ui.shipping.textContent = basket?.shipping ? show(basket.shipping) : '–';
  ui.discount.textContent = quote && !isZero(quote.discount) ? minus(quote.discount) : '–';
  ui.payable.textContent = quote ? show(quote.payable) : basket && !basket.error ? show(basket.total) : '–';
  ui.payableLabel.textContent = kind === 'paid' ? 'Paid' : 'To pay';
  ui.message.textContent = message;
  ui.quote.dataset.state = kind;
  ui.checkAgain.hidden = !checkAgain;
  paintDiscounts(quote);
  state.current = current;
  updateButtons();
  const toPay = basket && !basket.error ? ` To pay: ${ui.payable.textContent}.` : '';
  if (announce) voice.say(`${announce}${toPay}`);
  else voice.cancel();
}

export function updateButtons() {
  const { phase } = state;
  const payable = state.current?.quote?.payable ?? state.current?.basket.total;
  ui.pay.hidden = phase === 'held' || phase === 'confirming' || phase === 'cancelling' || phase === 'paid';
  ui.pay.disabled = !state.ready || phase !== 'shopping' || !state.current;
  // A code left out never disables Pay: it pays what the codes that apply give, and says which are left out.
  // While a code is looked up (a moment), Pay is off and keeps its last label: the sticky bar does not
  // flicker with each code typed.
  const waiting = phase === 'shopping' && !state.current && ui.quote.dataset.state === 'loading' && ui.pay.textContent !== '';
  if (phase === 'holding') ui.pay.textContent = 'Reserving…';
  else if (payable && state.current) ui.pay.textContent = payLabel(payable, state.current.without);
  else if (!waiting) ui.pay.textContent = 'Pay';
  ui.newOrder.hidden = phase !== 'paid';
  const locked = phase !== 'shopping';
  for (const input of [...codeFields.map((f) => f.input), ui.customer, ...rows.map((r) => r.input)]) input.disabled = locked;
  // The list of codes is part of the order: while it is being paid (or paid), it cannot change.
  ui.addCode.hidden = locked || codeFields.length >= MAX_CODES;
  for (const field of codeFields) if (field.remove) field.remove.hidden = locked;
}

export function setPhase(phase) {
  state.phase = phase;
  updateButtons();
}
