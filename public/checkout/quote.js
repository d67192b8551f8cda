// Quoting in the browser: one code with its parsed PromoCode, several with a PromoStack, from what the
// page knows (each code's lookup, the Worker's answer about the customer). No network unless a code or
// a customer is new; every price and refusal is the browser module's (the core's).
import { PromoStack } from '../pkg/promocodes.js';
import { listOf } from '../lib/format.js';
import { codeFields, codes, customerKey, customers, shop, show, skuName, state, ui } from './page.js';
import { appliedSentence, automaticSentence, partSentence, refusalSentence, spendMoreSentence } from './sentences.js';
import { automaticDefinition, hasAutomatic } from './automatic.js';
import { campaignCodeUsedUp, needsCustomerCheck, normalise, scheduleCustomerCheck, setStatus } from './codes.js';
import { readBasket, render } from './summary.js';
import { clearOutcome } from './outcome.js';
import { reportTry } from './tries.js';

// The page's own words for the core's refusals: its currency and its products' names.
const words = () => ({ currency: shop.currency, skuName });
const refusal = (rejection, code, definition, options) =>
  (reportTry(code, rejection), refusalSentence(rejection, code, definition, { ...options, ...words() }));

/** The buyer changed the order: a new checkout attempt, quoted again. */
export function onInput() {
  state.interacted = true;
  state.attempt = null; // a changed order is a new checkout attempt
  if (ui.outcome.dataset.kind !== 'none') clearOutcome();
  requote();
}

/** Re-quotes from what the page knows. No network unless a code or a customer is new. */
export function requote() {
  if (!state.ready || state.phase !== 'shopping') return;
  for (const field of codeFields) setStatus(field, '');
  const basket = readBasket();
  if (basket.error) return render({ basket: null, message: basket.error, kind: 'invalid', announce: basket.error });
  if (basket.empty) {
    const message = 'Your basket is empty: add something to pay for.';
    return render({ basket, message, kind: 'empty', announce: message });
  }
  const customer = ui.customer.value.trim();
  const filled = codeFields.filter((field) => field.input.value.trim() !== '');
  // With automatic promotions, every quote is a stack's: they join beside the typed codes (or none).
  if (filled.length > 1 || hasAutomatic()) return requoteStack(basket, customer, filled);
  if (filled.length === 0) {
    const message = 'No promo code: you pay the full price.';
    const current = { code: null, codes: [], basket, customer, quote: null };
    return render({ basket, message, kind: 'none', announce: message, current });
  }
  // One code (in whichever field): as the page has always quoted it.
  const normal = normalise(filled[0].input.value);
  if (normal.error) return render({ basket, message: normal.error, kind: 'invalid', announce: normal.error });
  const code = normal.code;

  const entry = codes.get(code);
  if (!entry || entry.status === 'pending') return render({ basket, message: `Looking up ${code}…`, kind: 'loading' });
  if (entry.status === 'unknown') {
    const message = `There is no code ${code}. Check the spelling, or pay without a code.`;
    return render({ basket, message, kind: 'unknown', announce: message });
  }
  if (entry.status === 'error') return render({ basket, message: entry.message, kind: 'error', announce: entry.message });

  let known = null;
  if (customer !== '' && needsCustomerCheck(entry)) {
    known = customers.get(customerKey(code, customer));
    if (!known || known.status === 'pending') {
      scheduleCustomerCheck(code, customer);
      return render({ basket, message: `Checking ${code} for ${customer}…`, kind: 'loading' });
    }
    if (known.status === 'error') return render({ basket, message: known.message, kind: 'error', announce: known.message });
    if (known.refusal) {
      const message = refusal(known.refusal.rejection, code, entry.definition, {
        customer,
        detail: known.refusal.detail,
        usage: entry.usage,
      });
      return render({ basket, message, kind: 'rejected', announce: message });
    }
  } else if (customer === '' && entry.assigned) {
    const message = `${code} is for named customers: enter your customer id.`;
    return render({ basket, message, kind: 'rejected', announce: message });
  }

  // The lookup's total may be a few seconds older than the customer's own count (the edge cache):
  // the customer's uses are part of the total, so it is never less than them.
  const perCustomer = known?.perCustomer ?? 0;
  const options = { usage: { total: Math.max(entry.usage.total, perCustomer), per_customer: perCustomer } };
  // A budgeted code's discounts so far: the module clips (or refuses) a discount that does not fit.
  if (entry.usage.discounted) options.usage.discounted = entry.usage.discounted;
  if (customer !== '') options.customer = customer;
  let result;
  try {
    result = entry.promo.quote(basket.request, options);
  } catch (err) {
    const message = `This basket cannot be priced: ${err.message}`;
    return render({ basket, message, kind: 'invalid', announce: message });
  }
  if (result.ok && campaignCodeUsedUp(entry)) {
    const message = refusal('exhausted', code, entry.definition, { customer, usage: entry.usage });
    return render({ basket, message, kind: 'rejected', announce: message, checkAgain: entry.usage.held > 0 });
  }
  if (result.ok) {
    const { quote } = result;
    const message = appliedSentence(quote, entry.definition, words());
    return render({
      basket,
      quote,
      message,
      kind: 'quoted',
      announce: message,
      current: { code: quote.code, codes: [quote.code], basket, customer, quote },
    });
  }
  const message = refusal(result.rejection, code, entry.definition, {
    customer,
    detail: result.message,
    usage: entry.usage,
  });
  const checkAgain = result.rejection === 'exhausted' && entry.usage.held > 0;
  return render({ basket, message, kind: 'rejected', announce: message, checkAgain });
}

// Several codes: what is known of each (its definition, and for a customer the Worker's answer), then
// the core's stack prices them together. Each code's part, or why it cannot be used, goes next to its
// field; the summary shows the stack's sums (or the refusals, and no Pay).
function requoteStack(basket, customer, filled) {
  const items = []; // { field, code, entry, perCustomer }, in the fields' order
  const problems = []; // { sentence, kind } for the summary, in the fields' order
  const refuse = (field, sentence, kind = 'rejected') => {
    setStatus(field, sentence, 'refused');
    problems.push({ sentence, kind });
  };
  let waiting = null;
  const seen = new Set();
  for (const field of filled) {
    const normal = normalise(field.input.value);
    if (normal.error) {
      refuse(field, normal.error, 'invalid');
      continue;
    }
    const code = normal.code;
    if (seen.has(code)) {
      refuse(field, `${code} is entered twice: remove one of them.`, 'invalid');
      continue;
    }
    seen.add(code);
    const entry = codes.get(code);
    if (!entry || entry.status === 'pending') {
      waiting ??= `Looking up ${code}…`;
      continue;
    }
    if (entry.status === 'unknown') {
      refuse(field, `There is no code ${code}. Check the spelling, or remove it.`, 'unknown');
      continue;
    }
    if (entry.status === 'error') {
      refuse(field, entry.message, 'error');
      continue;
    }
    let known = null;
    if (customer !== '' && needsCustomerCheck(entry)) {
      known = customers.get(customerKey(code, customer));
      if (!known || known.status === 'pending') {
        scheduleCustomerCheck(code, customer);
        waiting ??= `Checking ${code} for ${customer}…`;
        continue;
      }
      if (known.status === 'error') {
        refuse(field, known.message, 'error');
        continue;
      }
      if (known.refusal) {
        const { rejection, detail } = known.refusal;
        refuse(field, refusal(rejection, code, entry.definition, { customer, detail, usage: entry.usage }));
        continue;
      }
    } else if (customer === '' && entry.assigned) {
      refuse(field, `${code} is for named customers: enter your customer id.`);
      continue;
    }
    if (campaignCodeUsedUp(entry)) {
      refuse(field, refusal('exhausted', code, entry.definition, { customer, usage: entry.usage }));
      continue;
    }
    items.push({ field, code, entry, perCustomer: known?.perCustomer ?? 0 });
  }
  if (problems.length > 0) {
    const message = problems.map((p) => p.sentence).join(' ');
    const kind = ['error', 'invalid', 'unknown', 'rejected'].find((k) => problems.some((p) => p.kind === k));
    return render({ basket, message, kind, announce: message });
  }
  if (waiting) return render({ basket, message: waiting, kind: 'loading' });

  // Parsed once per list of definitions: a changed list or a definition fetched again parses anew.
  const entries = items.map((item) => item.entry);
  const automatic = hasAutomatic() ? state.automatic : undefined;
  let stack = state.stack;
  const same = stack && stack.automatic === automatic && stack.entries.length === entries.length;
  if (!same || stack.entries.some((entry, i) => entry !== entries[i])) {
    state.stack?.handle.free();
    state.stack = null;
    try {
      stack = { entries, automatic, handle: PromoStack.parse(entries.map((entry) => entry.definition), automatic) };
    } catch (err) {
      const message = `These codes cannot be used together on this page (${err.message}).`;
      return render({ basket, message, kind: 'error', announce: message });
    }
    state.stack = stack;
  }
  const options = {
    usage: items.map(({ entry, perCustomer }) => {
      const usage = { total: Math.max(entry.usage.total, perCustomer), per_customer: perCustomer };
      if (entry.usage.discounted) usage.discounted = entry.usage.discounted;
      return usage;
    }),
  };
  if (customer !== '') options.customer = customer;
  let result;
  try {
    result = stack.handle.quote(basket.request, options);
  } catch (err) {
    const message = `This basket cannot be priced: ${err.message}`;
    return render({ basket, message, kind: 'invalid', announce: message });
  }
  const listed = items.map((item) => item.code);
  if (result.ok && automatic) return quotedWithAutomatic(result.quote, basket, customer, items);
  if (result.ok) {
    const { quote } = result;
    const parts = new Map(quote.codes.map((part) => [part.code, part]));
    for (const item of items) setStatus(item.field, partSentence(parts.get(item.code), item.entry.definition, words()), 'applied');
    const message = `${listOf(quote.codes.map((part) => part.code))} applied together: ${show(quote.discount)} off in all.`;
    const current = { code: null, codes: listed, basket, customer, quote };
    return render({ basket, quote, message, kind: 'quoted', announce: message, current });
  }
  const refusals = new Map(result.rejections.map((r) => [r.code, r]));
  let checkAgain = false;
  for (const item of items) {
    const one = refusals.get(item.code);
    if (!one) continue;
    const sentence = refusal(one.rejection, item.code, item.entry.definition, {
      customer,
      detail: one.message,
      usage: item.entry.usage,
      other: one.with,
    });
    refuse(item.field, sentence);
    checkAgain ||= one.rejection === 'exhausted' && item.entry.usage.held > 0;
  }
  const message = problems.map((p) => p.sentence).join(' ');
  return render({ basket, message, kind: 'rejected', announce: message, checkAgain });
}

// A stack's quote with the automatic promotions offered: each typed code's part next to its field; the
// automatic ones that applied, and what the basket lacks for one below its minimum, in the summary.
// Pay then holds the typed codes with `"automatic": true` (the Worker decides them again).
function quotedWithAutomatic(quote, basket, customer, items) {
  const parts = new Map(quote.codes.map((part) => [part.code, part]));
  for (const item of items) setStatus(item.field, partSentence(parts.get(item.code), item.entry.definition, words()), 'applied');
  const typed = items.map((item) => item.code);
  const applied = quote.codes.filter((part) => part.automatic);
  const sentences = [];
  if (typed.length === 1 && applied.length === 0) {
    sentences.push(appliedSentence(parts.get(typed[0]), items[0].entry.definition, words()));
  } else if (typed.length > 0) {
    sentences.push(`${listOf(typed)} applied.`);
  }
  for (const part of applied) sentences.push(automaticSentence(part, automaticDefinition(part.code), words()));
  if (quote.codes.length > 1) sentences.push(`${show(quote.discount)} off in all.`);
  for (const skipped of quote.skipped ?? []) {
    const hint = spendMoreSentence(skipped, automaticDefinition(skipped.code), quote, { digits: shop.digits, skuName });
    if (hint) sentences.push(hint);
  }
  if (quote.codes.length === 0) sentences.unshift('No promo code: you pay the full price.');
  const message = sentences.join(' ');
  const current = {
    code: null,
    codes: quote.codes.map((part) => part.code),
    typed,
    automatic: applied.length > 0,
    basket,
    customer,
    quote: quote.codes.length > 0 ? quote : null,
  };
  const kind = quote.codes.length > 0 ? 'quoted' : 'none';
  return render({ basket, quote: current.quote, message, kind, announce: message, current });
}

export { refusal };
