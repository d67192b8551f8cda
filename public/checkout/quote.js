// Quoting in the browser: one code with its parsed PromoCode, several (or any with automatic
// promotions) with a PromoStack of the codes that apply (stack.js), from what the page knows (each
// code's lookup, the Worker's answer about the customer). No network unless a code or a customer is
// new; every price and refusal is the browser module's (the core's).
//
// A code never keeps the buyer from paying: a code that cannot be used (unknown, refused by a rule,
// not combinable, not a code at all) is marked next to its field with its sentence and left out;
// the others apply, and Pay pays what they give ("Pay €76.90 without LONER"), holding only them.
import { listOf } from '../lib/format.js';
import { codeFields, codes, customerKey, customers, shop, show, skuName, state, ui } from './page.js';
import {
  appliedSentence, automaticSentence, partSentence, refusalSentence, spendMoreSentence, typedName, unknownSentence,
  withoutSentence,
} from './sentences.js';
import { automaticDefinition, hasAutomatic } from './automatic.js';
import { campaignCodeUsedUp, needsCustomerCheck, normalise, scheduleCustomerCheck, setStatus } from './codes.js';
import { readBasket, render } from './summary.js';
import { clearOutcome } from './outcome.js';
import { applicable } from './stack.js';
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
  const basket = readBasket();
  const clearAll = () => codeFields.forEach((field) => setStatus(field, ''));
  if (basket.error || basket.empty) clearAll();
  if (basket.error) return render({ basket: null, message: basket.error, kind: 'invalid', announce: basket.error });
  if (basket.empty) {
    const message = 'Your basket is empty: add something to pay for.';
    return render({ basket, message, kind: 'empty', announce: message });
  }
  const customer = ui.customer.value.trim();
  const filled = codeFields.filter((field) => field.input.value.trim() !== '');
  const known = gather(filled, customer);
  if (known.waiting) {
    // The other fields keep their sentences for the moment a lookup takes: no line comes and goes
    // under the field being typed in.
    for (const field of known.waitingFields) setStatus(field, '');
    return render({ basket, message: known.waiting, kind: 'loading' });
  }
  clearAll();
  if (filled.length === 0 && !hasAutomatic()) {
    const message = 'No promo code: you pay the full price.';
    const current = { code: null, codes: [], without: [], basket, customer, quote: null };
    return render({ basket, message, kind: 'none', announce: message, current });
  }
  let priced;
  try {
    // One code (in whichever field) is quoted as a single code, as the page always has.
    priced = filled.length === 1 && known.items.length === 1 && !hasAutomatic()
      ? single(known.items[0], basket, customer)
      : stacked(known.items, basket, customer);
  } catch (err) {
    const message = `This order cannot be priced on this page (${err.message}).`;
    return render({ basket, message, kind: 'error', announce: message });
  }
  return settle(basket, customer, { ...priced, refused: [...known.refused, ...priced.refused], notes: known.notes });
}

// What the page knows of each filled field: the codes it can quote ({ field, code, entry,
// perCustomer }), the ones it cannot ({ field, name, sentence, kind, checkAgain }), notes (a code
// typed twice: { field, sentence }), or what it is still waiting for (a sentence, and the fields).
function gather(filled, customer) {
  const items = [];
  const refused = [];
  const notes = [];
  const waitingFields = [];
  let waiting = null;
  const seen = new Set();
  const refuse = (field, name, sentence, kind = 'rejected', checkAgain = false) =>
    refused.push({ field, name, sentence, kind, checkAgain });
  for (const field of filled) {
    const normal = normalise(field.input.value);
    if (normal.error) {
      refuse(field, typedName(field.input.value), normal.error, 'invalid');
      continue;
    }
    const code = normal.code;
    if (seen.has(code)) {
      notes.push({ field, sentence: `${code} is entered twice: remove one of them.` });
      continue;
    }
    seen.add(code);
    const entry = codes.get(code);
    if (!entry || entry.status === 'pending') {
      waiting ??= `Looking up ${code}…`;
      waitingFields.push(field);
      continue;
    }
    if (entry.status === 'unknown') {
      refuse(field, code, unknownSentence(code), 'unknown');
      continue;
    }
    if (entry.status === 'error') {
      refuse(field, code, entry.message, 'error', true);
      continue;
    }
    let known = null;
    if (customer !== '' && needsCustomerCheck(entry)) {
      known = customers.get(customerKey(code, customer));
      if (!known || known.status === 'pending') {
        scheduleCustomerCheck(code, customer);
        waiting ??= `Checking ${code} for ${customer}…`;
        waitingFields.push(field);
        continue;
      }
      if (known.status === 'error') {
        refuse(field, code, known.message, 'error');
        continue;
      }
      if (known.refusal) {
        const { rejection, detail } = known.refusal;
        refuse(field, code, refusal(rejection, code, entry.definition, { customer, detail, usage: entry.usage }));
        continue;
      }
    } else if (customer === '' && entry.assigned) {
      refuse(field, code, `${code} is for named customers: enter your customer id.`);
      continue;
    }
    if (campaignCodeUsedUp(entry)) {
      const sentence = refusal('exhausted', code, entry.definition, { customer, usage: entry.usage });
      refuse(field, code, sentence, 'rejected', entry.usage.held > 0);
      continue;
    }
    items.push({ field, code, entry, perCustomer: known?.perCustomer ?? 0 });
  }
  return { items, refused, notes, waiting, waitingFields };
}

// A refused item of the module's quote, as the page shows it.
function refusedItem(item, { rejection, message, with: other }, customer) {
  const { field, code, entry } = item;
  const sentence = refusal(rejection, code, entry.definition, { customer, detail: message, usage: entry.usage, other });
  return { field, name: code, sentence, kind: 'rejected', checkAgain: rejection === 'exhausted' && entry.usage.held > 0 };
}

// One code: its PromoCode's quote ({ quote, applied: [{ item, part }], refused }).
function single(item, basket, customer) {
  const { entry } = item;
  const options = { usage: { total: Math.max(entry.usage.total, item.perCustomer), per_customer: item.perCustomer } };
  if (entry.usage.discounted) options.usage.discounted = entry.usage.discounted;
  if (customer !== '') options.customer = customer;
  const result = entry.promo.quote(basket.request, options);
  if (result.ok) return { quote: result.quote, applied: [{ item, part: result.quote }], refused: [], stack: false };
  return { quote: null, applied: [], refused: [refusedItem(item, result, customer)], stack: false };
}

// Several codes (or any with automatic promotions): the stack of the codes that apply.
function stacked(items, basket, customer) {
  const automatic = hasAutomatic() ? state.automatic : undefined;
  const { quote, applied, refused } = applicable(items, basket, customer, automatic);
  const parts = new Map((quote?.codes ?? []).map((part) => [part.code, part]));
  return {
    quote,
    applied: applied.map((item) => ({ item, part: parts.get(item.code) })),
    refused: items.filter((item) => refused.has(item)).map((item) => refusedItem(item, refused.get(item), customer)),
    stack: true,
    automatic: Boolean(automatic),
  };
}

// Shows what was decided: each code's part or refusal next to its field, the summary's sentences,
// and what Pay pays for (the codes that apply; the ones left out named).
function settle(basket, customer, { quote, applied, refused, notes, stack, automatic = false }) {
  for (const { item, part } of applied) setStatus(item.field, partSentence(part, item.entry.definition, words()), 'applied');
  for (const one of [...refused, ...notes]) setStatus(one.field, one.sentence, 'refused');
  // The refusals in the fields' order.
  const order = (field) => codeFields.indexOf(field);
  refused.sort((a, b) => order(a.field) - order(b.field));
  const without = refused.map((one) => one.name);
  const typed = applied.map(({ item }) => item.code);
  const automaticParts = automatic ? (quote?.codes ?? []).filter((part) => part.automatic) : [];
  const priced = quote && (typed.length > 0 || automaticParts.length > 0) ? quote : null;

  const sentences = [];
  if (applied.length === 1 && automaticParts.length === 0) {
    sentences.push(appliedSentence(applied[0].part, applied[0].item.entry.definition, words()));
  } else if (applied.length > 0 && !automatic) {
    sentences.push(`${listOf(quote.codes.map((part) => part.code))} applied together: ${show(quote.discount)} off in all.`);
  } else if (applied.length > 0) {
    sentences.push(`${listOf(typed)} applied.`);
  }
  for (const part of automaticParts) sentences.push(automaticSentence(part, automaticDefinition(part.code), words()));
  if (automatic && quote && quote.codes.length > 1) sentences.push(`${show(quote.discount)} off in all.`);
  for (const skipped of automatic ? quote?.skipped ?? [] : []) {
    const hint = spendMoreSentence(skipped, automaticDefinition(skipped.code), quote, { digits: shop.digits, skuName });
    if (hint) sentences.push(hint);
  }
  for (const one of [...refused, ...notes].sort((a, b) => order(a.field) - order(b.field))) sentences.push(one.sentence);
  const payable = priced?.payable ?? basket.total;
  if (without.length > 0) sentences.push(withoutSentence(payable, without.length));
  else if (!priced) sentences.unshift('No promo code: you pay the full price.');
  const message = sentences.join(' ');

  const current = { code: null, codes: [], without, basket, customer, quote: priced };
  if (priced && !stack) Object.assign(current, { code: priced.code, codes: [priced.code] });
  else if (priced) Object.assign(current, { codes: quote.codes.map((part) => part.code), typed, automatic: automaticParts.length > 0 });
  // Without automatic promotions, a stack's codes are held as typed (the Worker answers in that order).
  if (priced && stack && !automatic) current.codes = typed;
  let kind = priced ? 'quoted' : 'none';
  if (refused.length > 0) kind = priced ? 'partial' : refused[0].kind;
  const checkAgain = refused.some((one) => one.checkAgain);
  return render({ basket, quote: priced, message, kind, announce: message, current, checkAgain });
}

export { refusal };
