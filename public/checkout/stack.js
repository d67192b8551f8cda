// The codes of a stack that apply, decided by the core: the browser module's PromoStack quotes the
// codes typed; a code it refuses is left out and the rest quoted again, until the core takes every
// code left (or none is left). Then each code left out is offered again beside the ones that apply,
// in the order typed, and joins when the core takes them all (a code refused only because of
// another refused code, e.g. one it cannot combine with, applies after all). Every decision is a
// quote of the core's; the page adds no rule. Pay then holds exactly the codes that apply, so that
// the Worker, deciding the same codes, holds all of them.
import { PromoStack } from '../pkg/promocodes.js';
import { state } from './page.js';

/**
 * Prices `items` ({ code, entry (a found lookup), perCustomer }, in the fields' order) with the
 * automatic promotions `automatic` (their definitions, or undefined for none) for `basket` and
 * `customer` ('' for none).
 *
 * Returns { quote (the stack's quote of the codes that apply, or null when none applies and no
 * promotion is offered), applied (the items that apply, in the fields' order), refused (a Map of
 * each item left out to its refusal: { code, rejection, with?, message }) }.
 *
 * Throws what the module throws: a definition it cannot read, or a basket it cannot price.
 */
export function applicable(items, basket, customer, automatic) {
  const used = new Set();
  const quoteOf = (subset) => {
    const handle = stackOf(subset, automatic, used);
    const options = { usage: subset.map(usageOf) };
    if (customer !== '') options.customer = customer;
    return handle.quote(basket.request, options);
  };
  try {
    const refused = new Map();
    let applied = items;
    let quote = null;
    while (applied.length > 0 || automatic) {
      const result = quoteOf(applied);
      if (result.ok) {
        quote = result.quote;
        break;
      }
      const named = new Map(result.rejections.map((r) => [r.code, r]));
      const left = applied.filter((item) => !named.has(item.code));
      if (left.length === applied.length) throw new Error(`the stack was refused for ${[...named.keys()].join(', ')}`);
      for (const item of applied) if (named.has(item.code)) refused.set(item, named.get(item.code));
      applied = left;
    }
    // Each code left out, offered again beside the ones that apply, in the order typed.
    for (const item of items) {
      if (!refused.has(item)) continue;
      const trial = items.filter((other) => other === item || applied.includes(other));
      const result = quoteOf(trial);
      if (result.ok) {
        applied = trial;
        quote = result.quote;
        refused.delete(item);
      } else {
        // Its own refusal beside the codes that apply, if the core names it (else the first one stands).
        const own = result.rejections.find((r) => r.code === item.code);
        if (own) refused.set(item, own);
      }
    }
    return { quote, applied, refused };
  } finally {
    // The stacks parsed for another list of codes than this quote's are done with.
    for (const [key, stack] of state.stacks) {
      if (used.has(key)) continue;
      stack.handle.free();
      state.stacks.delete(key);
    }
  }
}

// A code's usage as the module takes it. The lookup's total may be a few seconds older than the
// customer's own count (the edge cache): the customer's uses are part of the total, so it is never
// less than them. A budgeted code's discounts so far: the module clips (or refuses) what does not fit.
function usageOf({ entry, perCustomer }) {
  const usage = { total: Math.max(entry.usage.total, perCustomer), per_customer: perCustomer };
  if (entry.usage.discounted) usage.discounted = entry.usage.discounted;
  return usage;
}

// The parsed PromoStack of `items` (and the automatic promotions): parsed once per list of
// definitions (a definition fetched again parses anew) and kept while the quotes use it.
function stackOf(items, automatic, used) {
  const key = items.map((item) => item.code).join('\n');
  used.add(key);
  const entries = items.map((item) => item.entry);
  const known = state.stacks.get(key);
  if (known && known.automatic === automatic && known.entries.every((entry, i) => entry === entries[i])) return known.handle;
  known?.handle.free();
  state.stacks.delete(key);
  const handle = PromoStack.parse(entries.map((entry) => entry.definition), automatic);
  state.stacks.set(key, { entries, automatic, handle });
  return handle;
}
