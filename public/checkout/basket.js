// The basket as the core reads it, from the quantities typed: pure (no DOM), tested under
// `node --test tests/js/`. Amounts are summed in minor units (BigInt); no price becomes a number.
import { fromMinor, toMinor } from '../lib/money.js';

/**
 * Prices the basket's lines. `lines`: [{ sku, category, price (decimal text), name, quantity (the text
 * typed) }]; `shipping`: decimal text or null; `currency` and its `digits` (minor units).
 *
 * Returns { request (the core's Basket: { lines, shipping }), empty, subtotal, shipping, total (monies),
 * error (a sentence for the first quantity that is not a whole number from 0 to 99, else null), amounts
 * (each line's money, or null for a quantity refused) }. Lines of quantity 0 are left out of the request.
 */
export function priceBasket({ lines, shipping = null, currency, digits }) {
  const money = (minor) => ({ amount: fromMinor(minor, digits), currency });
  const shippingMinor = shipping ? toMinor(shipping, digits) : null;
  const requested = [];
  const amounts = [];
  let subtotal = 0n;
  let error = null;
  for (const line of lines) {
    const text = line.quantity.trim();
    if (!/^\d{1,2}$/.test(text)) {
      error ??= `Enter a quantity from 0 to 99 for the ${line.name.toLowerCase()}.`;
      amounts.push(null);
      continue;
    }
    const quantity = Number(text); // a count, 0 to 99
    const amount = toMinor(line.price, digits) * BigInt(quantity);
    amounts.push(money(amount));
    subtotal += amount;
    if (quantity > 0) {
      requested.push({
        sku: line.sku,
        quantity,
        unit_price: { amount: line.price, currency },
        categories: [line.category],
      });
    }
  }
  const request = { lines: requested };
  if (shippingMinor !== null) request.shipping = money(shippingMinor);
  return {
    request,
    empty: requested.length === 0,
    subtotal: money(subtotal),
    shipping: shippingMinor === null ? null : money(shippingMinor),
    total: money(subtotal + (shippingMinor ?? 0n)),
    error,
    amounts,
  };
}
