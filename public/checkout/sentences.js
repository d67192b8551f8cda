// What the checkout says to the buyer, from the core's rejection codes and a code's definition: pure
// (no DOM, no browser module), tested under `node --test tests/js/`. `shop` is { currency (the page's),
// skuName (a SKU's name on the page, in lower case) }.
import { capitalise, eitherOf, listOf, longWhen, ordinalWord, sentence } from '../lib/format.js';
import { add, compare, formatMinus, formatMoney as show, formatMoneyIn, isZero, subtract } from '../lib/money.js';

const sameSku = (sku) => sku;

/** A definition's discount in words: "20% off mugs (at most €5.00)", "free shipping". */
export function describeDiscount(definition, { skuName = sameSku } = {}) {
  const d = definition.discount;
  if (d.kind === 'buy_x_get_y') return describeDeal(d, definition.applies_to, skuName);
  if (d.kind === 'tiered') {
    const tiers = d.tiers.map((t) => `${describeDiscount({ discount: t.discount })} from ${tierFrom(t.from)}`);
    const scope = describeScope(definition.applies_to, { skuName });
    return `${listOf(tiers)}${scope ? ` of ${scope}` : ''}`;
  }
  let text;
  if (d.kind === 'percent') text = `${d.percent}% off`;
  else if (d.kind === 'fixed') text = `${show(d.amount)} off`;
  else text = 'free shipping';
  if (d.max) text += ` (at most ${show(d.max)})`;
  const scope = describeScope(definition.applies_to, { skuName });
  if (scope && d.kind !== 'free_shipping') text = text.replace(' off', ` off ${scope}`);
  return text;
}

/** A tier's start (or what is missing to reach it): money, or a count of items. */
const tierFrom = (from) => (typeof from === 'number' ? `${from} ${from === 1 ? 'item' : 'items'}` : show(from));

/** "buy 2 mugs, get 1 free", "spend €30.00 on mugs, get 1 coffee at 50% off". */
function describeDeal(d, appliesTo, skuName) {
  const buyScope = describeScope(d.buy.applies_to ?? appliesTo, { skuName });
  const getScope = describeScope(d.get.applies_to, { skuName });
  const buy = d.buy.amount ? `spend ${show(d.buy.amount)}${buyScope ? ` on ${buyScope}` : ''}` : `buy ${d.buy.quantity}${buyScope ? ` ${buyScope}` : ''}`;
  const off = d.get.percent === '100' ? 'free' : d.get.percent ? `at ${d.get.percent}% off` : `at ${show(d.get.amount)} off`;
  let text = `${buy}, get ${d.get.quantity}${getScope ? ` ${getScope}` : ''} ${off}`;
  if (d.max) text += ` (at most ${show(d.max)})`;
  return text;
}

/** "Spend €20.00 more for 15% off.": what a tiered quote's next tier needs ('' without one). */
export function nextTierSentence(quote, definition) {
  const next = quote?.next_tier;
  const tier = next && definition?.discount?.tiers?.[next.index];
  if (!tier) return '';
  const what = describeDiscount({ discount: tier.discount });
  if (typeof next.missing === 'number') return `Add ${next.missing} more ${next.missing === 1 ? 'item' : 'items'} for ${what}.`;
  return `Spend ${show(next.missing)} more for ${what}.`;
}

/** "mugs", "mugs or coffee", "enamel mug": the products a scoped code applies to ('' for every product). */
export function describeScope(appliesTo, { skuName = sameSku } = {}) {
  if (!appliesTo) return '';
  const names = [...(appliesTo.categories ?? []), ...(appliesTo.skus ?? []).map(skuName)];
  return names.length === 0 ? '' : eitherOf(names);
}

/** The sentence for a refusal of `code`. `detail` is the core's message, kept only as a fallback. */
export function refusalSentence(
  rejection,
  code,
  definition,
  { customer = '', detail = '', usage = null, other = '', currency = '', skuName = sameSku } = {},
) {
  const scope = describeScope(definition?.applies_to, { skuName });
  switch (rejection) {
    case 'not_combinable':
      return other ? `${code} cannot be combined with ${other}.` : `${code} cannot be combined with the other codes.`;
    case 'inactive':
      return `${code} is switched off at the moment.`;
    case 'customer_required':
      return `${code} is for signed-in customers: enter your customer id.`;
    case 'not_assigned':
      return customer ? `${code} is not available to ${customer}.` : `${code} is not available to you.`;
    case 'not_started':
      return definition?.starts_at ? `${code} can be used from ${longWhen(definition.starts_at)}.` : `${code} cannot be used yet.`;
    case 'expired':
      return definition?.ends_at ? `${code} expired on ${longWhen(definition.ends_at)}.` : `${code} has expired.`;
    case 'exhausted':
      return usage?.held > 0
        ? `Every use of ${code} is taken or reserved by someone paying right now. A use comes back if they cancel.`
        : `${code} has been used up.`;
    case 'customer_limit_reached': {
      const limit = definition?.limits?.per_customer;
      return limit > 1
        ? `You have already used ${code} ${limit} times, as often as it allows.`
        : 'You have already used this code.';
    }
    case 'currency_mismatch':
      return `${code} cannot be used for a payment in ${currency}.`;
    case 'no_eligible_items':
      return scope ? `${code} applies only to ${scope}: add some to your basket.` : `${code} applies to nothing in your basket.`;
    case 'budget_exhausted':
      return /left/.test(detail)
        ? `${capitalise(formatMoneyIn(detail))}, less than ${code} would take off this basket.`
        : `The budget of ${code} is used up.`;
    case 'below_minimum': {
      const minimum = definition?.minimum;
      if (!minimum) return `${code} needs a larger basket.`;
      return scope
        ? `${code} needs at least ${show(minimum)} of ${scope}.`
        : `${code} needs a basket of at least ${show(minimum)}.`;
    }
    default:
      return detail ? sentence(formatMoneyIn(detail)) : `${code} cannot be used.`;
  }
}

/**
 * Why a typed code is not a code: the page's own words for the core's refusal (its `problem`: the
 * character and its position, or a code too long).
 */
export function malformedSentence(problem) {
  if (problem?.kind === 'code_character') {
    const c = problem.character;
    const what = c === ' ' ? 'a space' : `“${c}”`;
    return `A promo code has only letters, digits, - and _: its ${ordinalWord(problem.position + 1)} character is ${what}.`;
  }
  return 'This is too long for a promo code.';
}

/** One code's quote in words: "SAVE10 applied: 10% off." and its note or budget clip. */
export function appliedSentence(quote, definition, shop = {}) {
  let message = `${quote.code} applied: ${describeDiscount(definition, shop)}.`;
  if (quote.note) message += ` ${sentence(quote.note)}`;
  const next = nextTierSentence(quote, definition);
  if (next) message += ` ${next}`;
  if (quote.budget_clipped) {
    // The exact amounts the budget allows, in the page's one money style ("€3.20").
    message += ` ${show(quote.discount)} left in this promotion's budget: you save ${show(quote.discount)} instead of ${show(quote.desired)}.`;
  }
  return message;
}

/** What one code of a stack takes off: "MUGS20: −€5.00, 20% off mugs." */
export function partSentence(part, definition, shop = {}) {
  if (!part) return '';
  let text = isZero(part.discount)
    ? `${part.code} takes nothing off this basket (${describeDiscount(definition, shop)}).`
    : `${part.code}: ${formatMinus(part.discount)}, ${describeDiscount(definition, shop)}.`;
  if (part.note) text += ` ${sentence(part.note)}`;
  if (part.budget_clipped) {
    text += ` ${show(part.discount)} left in this promotion's budget, instead of ${show(part.desired)}.`;
  }
  return text;
}

/**
 * An automatic promotion that applied, in words: "Free shipping applied automatically." for free
 * shipping, else "AUTO10 applied automatically: −€7.15, 10% off."
 */
export function automaticSentence(part, definition, shop = {}) {
  if (definition?.discount?.kind === 'free_shipping' && !isZero(part.discount)) return 'Free shipping applied automatically.';
  return `${part.code} applied automatically: ${formatMinus(part.discount)}, ${describeDiscount(definition ?? { discount: {} }, shop)}.`;
}

/**
 * What a skipped automatic promotion below its minimum asks of the basket: "Spend €12.10 more for
 * free shipping.", or null when it was skipped for another reason, or its
 * minimum is over some products only (the page cannot tell what counts). What counts is the lines
 * as the quote left them (each line's amount less its discount; a basket of one total: what is left
 * to pay, less the shipping), at `digits` places.
 */
export function spendMoreSentence(skipped, definition, quote, { digits = 2, skuName = sameSku } = {}) {
  const minimum = definition?.minimum;
  if (skipped.rejection !== 'below_minimum' || !minimum || definition.applies_to) return null;
  const counted = quote.lines
    ? add(quote.lines.map((line) => subtract(line.amount.amount, line.discount.amount, digits)), digits)
    : subtract(quote.payable.amount, quote.shipping ? subtract(quote.shipping.amount.amount, quote.shipping.discount.amount, digits) : '0', digits);
  const missing = { amount: subtract(minimum.amount, counted, digits), currency: minimum.currency };
  if (compare(missing.amount, '0') <= 0) return null;
  return `Spend ${show(missing)} more for ${describeDiscount(definition, { skuName })}.`;
}

/** An answer that is not an outcome, for the buyer: unreachable, too many requests, or the status. */
export function problemSentence(status, answer) {
  if (status === 0) return 'The shop could not be reached. Check your connection and try again.';
  if (status === 429) return 'Too many requests from this connection: wait a few seconds and try again.';
  return `The shop answered ${status}${answer.detail ? ` (${formatMoneyIn(answer.detail)})` : ''}.`;
}

/** The codes of an order, for a sentence: one code or the list ("MUGS20 and SAVE10"). */
export const codesOf = (order) => listOf(order.codes);
/** "is" for one code, "are" for several. */
export const isAre = (order) => (order.codes.length > 1 ? 'are' : 'is');

/** A code the shop does not know: "There is no code SAVE11: check the spelling." */
export const unknownSentence = (code) => `There is no code ${code}: check the spelling.`;

/** What Pay does when codes are left out: "You can pay €84.90 without it." (`count` codes left out). */
export const withoutSentence = (payable, count) => `You can pay ${show(payable)} without ${count === 1 ? 'it' : 'them'}.`;

/** Pay's label: "Pay €76.90", or with the codes it leaves out, "Pay €76.90 without LONER". */
export const payLabel = (payable, without = []) =>
  `Pay ${show(payable)}${without.length > 0 ? ` without ${listOf(without)}` : ''}`;

/** How a typed text that is not a code is named on Pay: in quotes, at most 16 characters (“SAVE 10”). */
export function typedName(text) {
  const trimmed = text.trim();
  return `“${trimmed.length > 16 ? `${trimmed.slice(0, 15)}…` : trimmed}”`;
}
