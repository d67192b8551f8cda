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
import init, {
  PromoCode,
  PromoStack,
  definitionFields,
  holdTtlBounds,
  isBasketRejection,
  minorUnits,
  normalizeCode,
} from './pkg/promocodes.js';

const LOOKUP_DELAY_MS = 250;
const CUSTOMER_CHECK_DELAY_MS = 300;
// An outcome is announced once it has stood this long: one announcement per lookup, not per keystroke.
const ANNOUNCE_DELAY_MS = 500;

// The most codes one basket takes (the core's `Stack::MAX_CODES`; the module refuses a sixth).
const MAX_CODES = 5;

const $ = (id) => document.getElementById(id);
const ui = {
  basket: $('basket'),
  code: $('code'),
  codeStatus: $('code-status'),
  moreCodes: $('more-codes'),
  addCode: $('add-code'),
  customer: $('customer'),
  quote: $('quote'),
  subtotal: $('subtotal'),
  shipping: $('shipping'),
  discount: $('discount'),
  payable: $('payable'),
  payableLabel: $('payable-label'),
  message: $('quote-message'),
  checkAgain: $('check-again'),
  pay: $('pay'),
  newOrder: $('new-order'),
  outcome: $('outcome'),
  announce: $('announce'),
};
const currency = ui.basket.dataset.currency;
let digits; // the currency's minor units, from the module once it is loaded
const rows = [...ui.basket.querySelectorAll('tbody tr')].map((row) => ({
  item: row.dataset.item,
  sku: row.dataset.sku,
  category: row.dataset.category,
  price: row.dataset.price,
  name: row.querySelector('th').textContent.trim(),
  input: row.querySelector('input.qty'),
  amount: $(`line-${row.dataset.item}`),
  discount: $(`line-discount-${row.dataset.item}`),
  priceCell: row.querySelector('.price'),
}));
const shippingRow = { amount: $('line-shipping'), discount: $('line-discount-shipping') };

// The code fields, in the order the buyer added them: the first (#code, always there) and the added
// ones, each { input, status (the sentence next to it), row and remove (added ones only) }.
const codeFields = [{ input: ui.code, status: ui.codeStatus, row: null, remove: null }];
let fieldsMade = 0; // ids of added fields are never reused, so a removed field's id cannot come back

// normalised code -> { status: 'pending' } | { status: 'unknown' } | { status: 'error', message }
//   | { status: 'found', promo (a parsed PromoCode), definition, assigned, usage: { total, held, discounted },
//       campaign (a campaign's code: its id, else null), remaining (the lookup's, or null) }
const codes = new Map();
// `${code}\n${customer}` -> what the Worker said about this customer and code:
//   { status: 'pending' } | { status: 'error', message }
//   | { status: 'known', perCustomer, refusal: null | { rejection, detail } }
const customers = new Map();

const state = {
  ready: false,
  interacted: false, // nothing is announced before the buyer does something
  // shopping -> holding -> held -> confirming -> paid; held -> cancelling -> shopping
  phase: 'shopping',
  current: null, // what Pay would pay for: { code (one code's, else null), codes (as typed), basket, customer, quote }
  order: null, // the checkout being paid: current + { attempt, hold, deadline }
  attempt: null, // the checkout attempt id of a Pay that got no answer (a retry reuses it)
  lookupTimers: new Map(), // input -> its lookup's debounce timer
  customerTimers: new Map(), // code -> its customer check's debounce timer
  stack: null, // the parsed PromoStack and the entries it was parsed from: { entries, handle }
  countdownTimer: 0,
  announceTimer: 0,
  announced: '',
};

// ---- formatting: the buyer's locale and time zone ----

const numberFormats = new Map();
function show(money) {
  if (!numberFormats.has(money.currency)) {
    numberFormats.set(money.currency, new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency }));
  }
  return numberFormats.get(money.currency).format(money.amount); // a decimal string: formatted exactly
}
const minus = (money) => `−${show(money)}`;
// Money as the core writes it: "EUR 3.20".
const plain = (money) => `${money.currency} ${money.amount}`;
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' });
const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const when = (rfc3339) => dateTime.format(new Date(rfc3339));

function minutesSeconds(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function ordinalWord(n) {
  const words = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
  return words[n - 1] ?? `number ${n}`;
}

const capitalise = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

// ---- money as decimal strings ----

function toMinor(text) {
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match || (match[2] ?? '').length > digits) throw new Error(`not a ${currency} amount: ${text}`);
  return BigInt(match[1]) * 10n ** BigInt(digits) + BigInt((match[2] ?? '').padEnd(digits, '0') || '0');
}

function fromMinor(minor) {
  if (digits === 0) return minor.toString();
  const text = minor.toString().padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

const money = (minor) => ({ amount: fromMinor(minor), currency });
const isZero = (m) => !m || /^0*(\.0*)?$/.test(m.amount);

// ---- the basket ----

// Reads the table: the lines to quote (quantity 0 left out), the shipping, the subtotal and the total,
// or an error sentence for a quantity that is not a whole number from 0 to 99.
function readBasket() {
  const shipping = ui.basket.dataset.shipping ? toMinor(ui.basket.dataset.shipping) : null;
  const lines = [];
  let subtotal = 0n;
  let error = null;
  for (const row of rows) {
    const text = row.input.value.trim();
    if (!/^\d{1,2}$/.test(text)) {
      error ??= `Enter a quantity from 0 to 99 for the ${row.name.toLowerCase()}.`;
      row.input.setAttribute('aria-invalid', 'true');
      row.amount.textContent = '–';
      continue;
    }
    row.input.removeAttribute('aria-invalid');
    const quantity = Number(text);
    const amount = toMinor(row.price) * BigInt(quantity);
    row.amount.textContent = show(money(amount));
    subtotal += amount;
    if (quantity > 0) {
      lines.push({
        sku: row.sku,
        quantity,
        unit_price: { amount: row.price, currency },
        categories: [row.category],
      });
    }
  }
  const request = { lines };
  if (shipping !== null) request.shipping = money(shipping);
  shippingRow.amount.textContent = shipping === null ? '–' : show(money(shipping));
  return {
    request, // the core's Basket: { lines, shipping }
    empty: lines.length === 0,
    subtotal: money(subtotal),
    shipping: shipping === null ? null : money(shipping),
    total: money(subtotal + (shipping ?? 0n)),
    error,
  };
}

// ---- rendering the summary ----

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

// Renders the summary. `kind` is the state of the quote (styled, and read by the tests); `announce`
// is what a screen reader should hear once this outcome has stood for a moment (null: nothing yet).
function render({ basket, quote = null, message, kind, current = null, announce = null, checkAgain = false }) {
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
  if (announce) scheduleAnnouncement(`${announce}${toPay}`);
  else cancelAnnouncement();
}

function updateButtons() {
  const { phase } = state;
  const payable = state.current?.quote?.payable ?? state.current?.basket.total;
  ui.pay.hidden = phase === 'held' || phase === 'confirming' || phase === 'cancelling' || phase === 'paid';
  ui.pay.disabled = !state.ready || phase !== 'shopping' || !state.current;
  ui.pay.textContent = phase === 'holding' ? 'Reserving…' : payable && state.current ? `Pay ${show(payable)}` : 'Pay';
  ui.newOrder.hidden = phase !== 'paid';
  const locked = phase !== 'shopping';
  for (const input of [...codeFields.map((f) => f.input), ui.customer, ...rows.map((r) => r.input)]) input.disabled = locked;
  // The list of codes is part of the order: while it is being paid (or paid), it cannot change.
  ui.addCode.hidden = locked || codeFields.length >= MAX_CODES;
  for (const field of codeFields) if (field.remove) field.remove.hidden = locked;
}

// ---- the code fields: "Add another code" and "Remove" ----

// Adds an empty code field after the last one (up to MAX_CODES) and moves focus to it.
function addCodeField() {
  if (state.phase !== 'shopping' || codeFields.length >= MAX_CODES) return;
  fieldsMade += 1;
  const id = `code-more-${fieldsMade}`;
  const label = el('label', { for: id });
  const input = el('input', {
    id,
    class: 'code-input',
    name: id,
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    maxlength: '80',
    placeholder: 'e.g. SHIPFREE',
    'aria-describedby': `${id}-status`,
  });
  const remove = el('button', { type: 'button', class: 'secondary small remove' }, 'Remove');
  const status = el('p', { class: 'code-status', id: `${id}-status` });
  const row = el('div', { class: 'code-row added' }, label, el('div', { class: 'code-line' }, input, remove), status);
  const field = { input, status, row, remove, label };
  remove.addEventListener('click', () => removeCodeField(field));
  codeFields.push(field);
  ui.moreCodes.append(row);
  nameFields();
  updateButtons();
  input.focus();
}

// Removes an added code field; focus goes to the field before it, and the order is quoted again.
function removeCodeField(field) {
  const index = codeFields.indexOf(field);
  if (state.phase !== 'shopping' || index < 1) return;
  codeFields.splice(index, 1);
  field.row.remove();
  clearTimeout(state.lookupTimers.get(field.input));
  state.lookupTimers.delete(field.input);
  nameFields();
  updateButtons();
  codeFields[index - 1].input.focus();
  onInput();
}

// Each added field's label and its Remove button's name follow its place: "Second promo code".
function nameFields() {
  codeFields.forEach((field, i) => {
    if (!field.label) return;
    field.label.textContent = `${capitalise(ordinalWord(i + 1))} promo code`;
    field.remove.setAttribute('aria-label', `Remove the ${ordinalWord(i + 1)} promo code`);
  });
}

// The sentence next to a code's field ('' for none); `kind` styles it, and marks the field invalid.
function setStatus(field, text, kind = '') {
  field.status.textContent = text;
  field.status.dataset.kind = kind;
  if (kind === 'refused') field.input.setAttribute('aria-invalid', 'true');
  else field.input.removeAttribute('aria-invalid');
}

// The codes typed, normalised, in the fields' order (malformed or empty ones left out).
const typedCodes = () =>
  codeFields.map((f) => (f.input.value.trim() === '' ? null : normalise(f.input.value).code)).filter(Boolean);

// "SAVE10", "MUGS20 and SAVE10", "MUGS20, SAVE10 and SHIPFREE".
const listOf = (items) => new Intl.ListFormat('en-GB', { type: 'conjunction' }).format(items);
// The codes of an order, for a sentence: one code or the list.
const codesOf = (order) => listOf(order.codes);
const isAre = (order) => (order.codes.length > 1 ? 'are' : 'is');

// ---- announcements: one per settled outcome ----

function scheduleAnnouncement(text) {
  clearTimeout(state.announceTimer);
  if (!state.interacted) return;
  state.announceTimer = setTimeout(() => announceNow(text), ANNOUNCE_DELAY_MS);
}

function cancelAnnouncement() {
  clearTimeout(state.announceTimer);
}

function announceNow(text) {
  clearTimeout(state.announceTimer);
  if (text === state.announced) return;
  state.announced = text;
  ui.announce.textContent = text;
}

// ---- the outcome panel (the hold, the receipt, a refusal) ----

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) node.setAttribute(key, value);
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== ''));
  return node;
}

function showOutcome(kind, children, { focus = false } = {}) {
  ui.outcome.dataset.kind = kind;
  ui.outcome.replaceChildren(...children.filter(Boolean));
  if (focus) ui.outcome.focus();
}

function clearOutcome() {
  ui.outcome.dataset.kind = 'none';
  ui.outcome.replaceChildren();
}

// ---- sentences for the buyer, from the rejection code and the definition ----

function describeDiscount(definition) {
  const d = definition.discount;
  let text;
  if (d.kind === 'percent') text = `${d.percent}% off`;
  else if (d.kind === 'fixed') text = `${show(d.amount)} off`;
  else text = 'free shipping';
  if (d.max) text += ` (at most ${show(d.max)})`;
  const scope = describeScope(definition.applies_to);
  if (scope && d.kind !== 'free_shipping') text = text.replace(' off', ` off ${scope}`);
  return text;
}

// "mugs", "mugs or coffee", "enamel mug": the products a scoped code applies to ('' for every product).
function describeScope(appliesTo) {
  if (!appliesTo) return '';
  const names = [
    ...(appliesTo.categories ?? []),
    ...(appliesTo.skus ?? []).map((sku) => rows.find((r) => r.sku === sku)?.name.toLowerCase() ?? sku),
  ];
  return names.length === 0 ? '' : new Intl.ListFormat('en', { type: 'disjunction' }).format(names);
}

// The sentence for a refusal of `code`. `detail` is the core's message, kept only as a fallback.
function refusalSentence(rejection, code, definition, { customer = '', detail = '', usage = null, other = '' } = {}) {
  const scope = describeScope(definition?.applies_to);
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
      return definition?.starts_at ? `${code} can be used from ${when(definition.starts_at)}.` : `${code} cannot be used yet.`;
    case 'expired':
      return definition?.ends_at ? `${code} expired on ${when(definition.ends_at)}.` : `${code} has expired.`;
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
        ? `${capitalise(detail)}, less than ${code} would take off this basket.`
        : `The budget of ${code} is used up.`;
    case 'below_minimum': {
      const minimum = definition?.minimum;
      if (!minimum) return `${code} needs a larger basket.`;
      return scope
        ? `${code} needs at least ${show(minimum)} of ${scope}.`
        : `${code} needs a basket of at least ${show(minimum)}.`;
    }
    default:
      return detail ? `${capitalise(detail)}.`.replace(/\.\.$/, '.') : `${code} cannot be used.`;
  }
}

// Why a typed code is not a code: the page's own words for the core's refusal (its `problem`: the
// character and its position, or a code too long).
function malformedSentence(problem) {
  if (problem?.kind === 'code_character') {
    const c = problem.character;
    const what = c === ' ' ? 'a space' : `“${c}”`;
    return `A promo code has only letters, digits, - and _: its ${ordinalWord(problem.position + 1)} character is ${what}.`;
  }
  return 'This is too long for a promo code.';
}

// ---- quoting ----

function normalise(text) {
  try {
    const code = normalizeCode(text);
    return typeof code === 'string' ? { code } : { error: malformedSentence(null) };
  } catch (err) {
    return { error: malformedSentence(err?.problem) };
  }
}

const customerKey = (code, customer) => `${code}\n${customer}`;

// Whether the Worker must be asked about this customer: the code is for named customers, or limits
// each customer's uses. The browser knows neither the audience nor the customer's count.
const needsCustomerCheck = (entry) => entry.assigned || Boolean(entry.definition.limits?.per_customer);

// Re-quotes from what the page knows. No network unless a code or a customer is new.
function requote() {
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
  if (filled.length === 0) {
    const message = 'No promo code: you pay the full price.';
    const current = { code: null, codes: [], basket, customer, quote: null };
    return render({ basket, message, kind: 'none', announce: message, current });
  }
  if (filled.length > 1) return requoteStack(basket, customer, filled);
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
      const message = refusalSentence(known.refusal.rejection, code, entry.definition, {
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
    const message = refusalSentence('exhausted', code, entry.definition, { customer, usage: entry.usage });
    return render({ basket, message, kind: 'rejected', announce: message, checkAgain: entry.usage.held > 0 });
  }
  if (result.ok) {
    const { quote } = result;
    let message = `${quote.code} applied: ${describeDiscount(entry.definition)}.`;
    if (quote.note) message += ` ${capitalise(quote.note)}.`.replace(/\.\.$/, '.');
    if (quote.budget_clipped) {
      // Written as the core writes money ("EUR 3.20"): the exact amounts the budget allows.
      message += ` ${plain(quote.discount)} left in this promotion's budget: you save ${plain(quote.discount)} instead of ${plain(quote.desired)}.`;
    }
    return render({
      basket,
      quote,
      message,
      kind: 'quoted',
      announce: message,
      current: { code: quote.code, codes: [quote.code], basket, customer, quote },
    });
  }
  const message = refusalSentence(result.rejection, code, entry.definition, {
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
        refuse(field, refusalSentence(rejection, code, entry.definition, { customer, detail, usage: entry.usage }));
        continue;
      }
    } else if (customer === '' && entry.assigned) {
      refuse(field, `${code} is for named customers: enter your customer id.`);
      continue;
    }
    if (campaignCodeUsedUp(entry)) {
      refuse(field, refusalSentence('exhausted', code, entry.definition, { customer, usage: entry.usage }));
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
  let stack = state.stack;
  if (!stack || stack.entries.length !== entries.length || stack.entries.some((entry, i) => entry !== entries[i])) {
    state.stack?.handle.free();
    state.stack = null;
    try {
      stack = { entries, handle: PromoStack.parse(entries.map((entry) => entry.definition)) };
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
  if (result.ok) {
    const { quote } = result;
    const parts = new Map(quote.codes.map((part) => [part.code, part]));
    for (const item of items) setStatus(item.field, partSentence(parts.get(item.code), item.entry.definition), 'applied');
    const message = `${listOf(quote.codes.map((part) => part.code))} applied together: ${show(quote.discount)} off in all.`;
    const current = { code: null, codes: listed, basket, customer, quote };
    return render({ basket, quote, message, kind: 'quoted', announce: message, current });
  }
  const refusals = new Map(result.rejections.map((r) => [r.code, r]));
  let checkAgain = false;
  for (const item of items) {
    const refusal = refusals.get(item.code);
    if (!refusal) continue;
    const sentence = refusalSentence(refusal.rejection, item.code, item.entry.definition, {
      customer,
      detail: refusal.message,
      usage: item.entry.usage,
      other: refusal.with,
    });
    refuse(item.field, sentence);
    checkAgain ||= refusal.rejection === 'exhausted' && item.entry.usage.held > 0;
  }
  const message = problems.map((p) => p.sentence).join(' ');
  return render({ basket, message, kind: 'rejected', announce: message, checkAgain });
}

// What one code of a stack takes off: "MUGS20: −€5.00, 20% off mugs."
function partSentence(part, definition) {
  if (!part) return '';
  let text = isZero(part.discount)
    ? `${part.code} takes nothing off this basket (${describeDiscount(definition)}).`
    : `${part.code}: ${minus(part.discount)}, ${describeDiscount(definition)}.`;
  if (part.note) text += ` ${capitalise(part.note)}.`.replace(/\.\.$/, '.');
  if (part.budget_clipped) {
    text += ` ${plain(part.discount)} left in this promotion's budget, instead of ${plain(part.desired)}.`;
  }
  return text;
}

// ---- the Worker ----

async function post(route, body) {
  try {
    const res = await fetch(route, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await res.json().catch(() => ({}));
    return { status: res.status, answer, headers: res.headers };
  } catch (err) {
    return { status: 0, answer: { detail: err.message }, headers: new Headers() };
  }
}

function problemSentence(status, answer) {
  if (status === 0) return 'The shop could not be reached. Check your connection and try again.';
  if (status === 429) return 'Too many requests from this connection: wait a few seconds and try again.';
  return `The shop answered ${status}${answer.detail ? ` (${answer.detail})` : ''}.`;
}

// Fetches a code's definition (once per normalised code, or again when `force`d), parses it once,
// then re-quotes if it is still the code typed.
async function lookup(code, { force = false } = {}) {
  const previous = codes.get(code);
  if (previous && !force && previous.status !== 'error') return;
  if (previous?.status === 'pending') return;
  codes.set(code, { status: 'pending' });
  let entry;
  try {
    // A forced lookup (after the Worker refused or the code changed) skips the browser's copy; the Worker's
    // edge copy is purged whenever the code is redefined or reaches or leaves its cap.
    const res = await fetch(`/v1/codes/${encodeURIComponent(code)}`, {
      headers: { accept: 'application/json' },
      cache: force ? 'no-store' : 'default',
    });
    const body = await res.json().catch(() => ({}));
    if (res.status === 404) entry = { status: 'unknown' };
    else if (!res.ok) entry = { status: 'error', message: `${code} could not be looked up. ${problemSentence(res.status, body)}` };
    else entry = toEntry(body);
  } catch (err) {
    entry = { status: 'error', message: `${code} could not be looked up. ${problemSentence(0, { detail: err.message })}` };
  }
  previous?.promo?.free(); // the definition this one replaces, parsed once and now done with
  codes.set(code, entry);
  if (typedCodes().includes(code)) requote();
}

// A campaign's code used up, though the campaign may have uses left: the module prices the campaign's
// definition and cannot see the code's own cap; the lookup's `remaining` (the core's, on the Worker) can.
function campaignCodeUsedUp(entry) {
  return entry.campaign !== null && entry.remaining === 0;
}

// A fetched definition, parsed once. Only the fields of the core's Definition go to the module
// (GET /v1/codes/{code} adds `assigned`, `usage`, `remaining`, which the module would refuse).
function toEntry(body) {
  const definition = {};
  for (const field of definitionFields()) if (body[field] !== undefined && body[field] !== null) definition[field] = body[field];
  let promo;
  try {
    promo = PromoCode.parse(definition);
  } catch (err) {
    return { status: 'error', message: `${definition.code ?? 'This code'} cannot be used on this page (${err.message}).` };
  }
  return {
    status: 'found',
    promo,
    definition,
    assigned: Boolean(body.assigned),
    usage: { total: body.usage?.total ?? 0, held: body.usage?.held ?? 0, discounted: body.usage?.discounted ?? null },
    // A campaign's code: the module prices the campaign's definition, without the code's own cap
    // (`uses_per_code`); the lookup's `remaining` (the core's, on the Worker) counts it.
    campaign: body.campaign ?? null,
    remaining: body.remaining ?? null,
  };
}

// Looks up the code typed in `input` (a code field) once the buyer pauses; each field debounces alone.
function scheduleLookup(input = ui.code) {
  clearTimeout(state.lookupTimers.get(input));
  const normal = normalise(input.value);
  if (!normal.code) return;
  const known = codes.get(normal.code);
  if (known && known.status !== 'error') return;
  state.lookupTimers.set(input, setTimeout(() => lookup(normal.code), LOOKUP_DELAY_MS));
}

// One pending check per code: a customer id still being typed replaces the code's previous check.
function scheduleCustomerCheck(code, customer) {
  clearTimeout(state.customerTimers.get(code));
  state.customerTimers.set(code, setTimeout(() => checkCustomer(code, customer), CUSTOMER_CHECK_DELAY_MS));
}

// Asks the Worker once whether `customer` may use `code` (POST /demo/quote: the page holds no token).
async function checkCustomer(code, customer) {
  const key = customerKey(code, customer);
  if (customers.has(key)) return;
  // Typed over while the check waited: the code or the customer is no longer the one to check.
  if (!typedCodes().includes(code) || ui.customer.value.trim() !== customer) return;
  const entry = codes.get(code);
  const basket = readBasket();
  if (entry?.status !== 'found' || basket.error || basket.empty) return;
  customers.set(key, { status: 'pending' });
  const { status, answer } = await post('/demo/quote', { code, ...basket.request, customer });
  let known;
  if (status === 200) known = { status: 'known', perCustomer: 0, refusal: null };
  else if (status === 422 && answer.rejection === 'customer_limit_reached') {
    // The customer's count is at the limit: the local quote refuses the same way from now on.
    known = { status: 'known', perCustomer: entry.definition.limits?.per_customer ?? 1, refusal: null };
  } else if (status === 422 && isBasketRejection(answer.rejection)) {
    // Decided by the basket: the rules about the customer, checked before it, passed.
    known = { status: 'known', perCustomer: 0, refusal: null };
  } else if (status === 422 && answer.rejection) {
    known = { status: 'known', perCustomer: 0, refusal: { rejection: answer.rejection, detail: answer.detail ?? '' } };
  } else known = { status: 'error', message: `${code} could not be checked for ${customer}. ${problemSentence(status, answer)}` };
  if (known.status === 'error') customers.delete(key); // asked again on the next change
  else customers.set(key, known);
  const current = typedCodes().includes(code) && ui.customer.value.trim() === customer;
  if (!current) return;
  if (known.status === 'error') {
    render({ basket, message: known.message, kind: 'error', announce: known.message });
  } else requote();
}

// ---- paying: Pay (hold) -> Confirm payment (capture) | Cancel (release) ----

// How long Pay reserves the code: the core's default hold (15 minutes); `?hold=SECONDS`, within the
// core's bounds (1 to 3600), overrides it, e.g. for tests.
function holdSeconds() {
  const bounds = holdTtlBounds();
  const text = new URLSearchParams(location.search).get('hold');
  const seconds = Number(text);
  return text && Number.isInteger(seconds) && seconds >= bounds.min && seconds <= bounds.max ? seconds : bounds.default;
}

function setPhase(phase) {
  state.phase = phase;
  updateButtons();
}

async function pay() {
  if (state.phase !== 'shopping' || !state.current) return;
  const order = { ...state.current, attempt: state.attempt ?? crypto.randomUUID(), hold: null, deadline: 0 };
  clearOutcome();
  if (order.codes.length === 0) {
    // Nothing to reserve: confirm the payment of the full price.
    state.order = order;
    setPhase('held');
    return showHeld({ focus: true });
  }
  state.attempt = order.attempt; // a retry after no answer is the same attempt
  setPhase('holding');
  const body = { ...named(order), ...order.basket.request, ttl_seconds: holdSeconds(), attempt: order.attempt };
  if (order.customer !== '') body.customer = order.customer;
  const { status, answer, headers } = await post('/demo/hold', body);
  // One code's hold, or a stack's: one hold per code, every code held (the Worker holds all or none).
  const holds = answer.holds ?? [answer];
  if ((status === 201 || status === 200) && holds.length > 0 && holds.every((hold) => hold.state === 'held')) {
    state.attempt = null;
    order.hold = answer;
    const expires = Math.min(...holds.map((hold) => Date.parse(hold.expires_at)));
    order.deadline = Date.now() + Math.min(holdSeconds() * 1000, expires - Date.now());
    state.order = order;
    setPhase('held');
    showHeld({ focus: true });
    startCountdown();
    return;
  }
  setPhase('shopping');
  if (status === 422 && answer.rejection) {
    state.attempt = null;
    refusedWhilePaying(order, answer);
  } else if (status === 409) busy(headers, { focus: true });
  else {
    if (status === 200 || status === 201) state.attempt = null; // a replay of an old attempt: start afresh
    failed(status, answer, 'Nothing was reserved or charged.', { focus: true });
  }
  requote();
}

// The held state: what is reserved, until when, and the two buttons.
function showHeld({ focus = false, note = null } = {}) {
  const order = state.order;
  const payable = order.quote?.payable ?? order.basket.total;
  const confirm = el('button', { type: 'button', id: 'confirm' }, `Confirm payment of ${show(payable)}`);
  const cancel = el('button', { type: 'button', id: 'cancel', class: 'secondary' }, 'Cancel');
  confirm.addEventListener('click', confirmPayment);
  cancel.addEventListener('click', cancelPayment);
  const reserved = order.hold
    ? el('p', { id: 'hold-message' }, reservationSentence(order))
    : el('p', { id: 'hold-message' }, 'No promo code: there is nothing to reserve.');
  showOutcome(
    order.hold ? 'held' : 'confirm',
    [
      el('h3', {}, 'Confirm your payment'),
      reserved,
      note,
      el('p', { class: 'hint' }, `Confirm payment stands for your payment provider's confirmation of ${show(payable)}.`),
      el('div', { class: 'actions' }, confirm, cancel),
    ],
    { focus },
  );
}

// The request's field for the order's codes: `code` for one (as the page always sent it), `codes` for a stack.
const named = (order) => (order.codes.length > 1 ? { codes: order.codes } : { code: order.code });

function reservationSentence(order) {
  const until = clock.format(new Date(order.deadline));
  return `${codesOf(order)} ${isAre(order)} reserved for you until ${until} (${minutesSeconds(order.deadline - Date.now())} left).`;
}

function startCountdown() {
  clearInterval(state.countdownTimer);
  state.countdownTimer = setInterval(tick, 1000);
}

function stopCountdown() {
  clearInterval(state.countdownTimer);
}

function tick() {
  const order = state.order;
  if (!order?.hold) return stopCountdown();
  if (state.phase !== 'held') return; // confirming or cancelling: their answer decides
  if (Date.now() >= order.deadline) return expired(order);
  const line = $('hold-message');
  if (line) line.textContent = reservationSentence(order);
}

// The hold ran out on screen: say so, give the page back to the buyer, and re-quote. (The usage the
// page knows was read before the hold, so the quote needs no new lookup.) One announcement: the expiry.
function expired(order) {
  stopCountdown();
  state.order = null;
  setPhase('shopping');
  const sentence = `Your reservation of ${codesOf(order)} ran out at ${clock.format(new Date(order.deadline))}. Nothing was charged.`;
  showOutcome('expired', [
    el('h3', {}, 'Reservation expired'),
    el('p', { id: 'expired-message' }, sentence),
    el('p', { class: 'hint' }, 'Pay again to reserve the code again.'),
  ]);
  requote();
  announceNow(sentence);
}

async function confirmPayment() {
  const order = state.order;
  if (state.phase !== 'held' || !order) return;
  if (!order.hold) return paid({ quote: null, usage: null, replayed: false }, order);
  setPhase('confirming');
  const body = { ...named(order), ...order.basket.request, quote: order.quote, attempt: order.attempt };
  if (order.customer !== '') body.customer = order.customer;
  const { status, answer, headers } = await post('/demo/pay', body);
  const receipts = answer.receipts ?? [answer];
  if ((status === 201 || status === 200) && receipts.length > 0 && receipts.every((r) => r.state === 'captured')) {
    return paid(answer, order);
  }
  if (status === 422 && answer.rejection) {
    stopCountdown();
    state.order = null;
    setPhase('shopping');
    // The use stays reserved otherwise, until the hold runs out; released before the lookup below.
    await release(order, answer.rejection);
    refusedWhilePaying(order, answer);
    return requote();
  }
  if (Date.now() >= order.deadline) return expired(order);
  setPhase('held');
  const note = status === 409 ? busyNote(headers) : failedNote(status, answer);
  showHeld({ focus: true, note });
}

async function cancelPayment() {
  const order = state.order;
  if (state.phase !== 'held' || !order) return;
  stopCountdown();
  if (!order.hold) {
    state.order = null;
    setPhase('shopping');
    showOutcome('cancelled', [el('h3', {}, 'Payment cancelled'), el('p', {}, 'Nothing was charged.')], { focus: true });
    return requote();
  }
  setPhase('cancelling');
  const { status, answer } = await release(order, 'cancelled by the buyer');
  state.order = null;
  setPhase('shopping');
  if (status === 200) {
    showOutcome('cancelled', [
      el('h3', {}, 'Payment cancelled'),
      el('p', { id: 'cancel-message' }, `${codesOf(order)} ${isAre(order)} no longer reserved for you, and nothing was charged.`),
    ], { focus: true });
  } else {
    failed(status, answer, `Nothing was charged; the reservation of ${codesOf(order)} runs out by itself.`, { focus: true });
  }
  requote();
}

// Gives the held use (every code's, for a stack) back. Each answer's usage is its code's count now
// (a stack's answers come one per code, as listed).
async function release(order, reason) {
  const answer = await post('/demo/cancel', { ...named(order), attempt: order.attempt, reason });
  if (answer.status === 200) {
    const released = answer.answer.releases ?? [answer.answer];
    order.codes.forEach((code, i) => {
      const entry = codes.get(code);
      const usage = released[i]?.usage;
      if (entry?.status !== 'found' || !usage) return;
      entry.usage = { ...entry.usage, total: usage.total, discounted: usage.discounted ?? entry.usage.discounted };
    });
  }
  return answer;
}

// The final state: the summary shows what was paid, the receipt next to it.
function paid(receipt, order) {
  stopCountdown();
  state.order = null;
  state.attempt = null;
  setPhase('paid');
  // One code's receipt, or a stack's: one receipt per code, captured pinned to the stack's quote shown.
  const receipts = receipt.receipts ?? (receipt.quote ? [receipt] : []);
  const stacked = Boolean(receipt.receipts);
  const quote = stacked ? order.quote : receipt.quote;
  for (const one of receipts) learnFromReceipt(one, order);
  const basket = order.basket;
  const codesPaid = stacked ? codesOf(order) : quote?.code;
  const message = quote ? `Paid with ${codesPaid}.` : 'Paid, without a promo code.';
  render({ basket, quote, message, kind: 'paid' });
  const payable = quote?.payable ?? basket.total;
  const discount = quote?.discount;
  const replayed = receipts.length > 0 ? receipts.every((one) => one.replayed) : receipt.replayed;
  showOutcome(
    'receipt',
    [
      el('h3', {}, 'Payment confirmed'),
      el(
        'p',
        { id: 'receipt-message' },
        quote && !isZero(discount)
          ? `You paid ${show(payable)}: ${show(discount)} off ${show(quote.total)} with ${codesPaid}.`
          : `You paid ${show(payable)}.`,
      ),
      el(
        'dl',
        { class: 'receipt' },
        quote ? el('div', {}, el('dt', {}, stacked ? 'Codes' : 'Code'), el('dd', {}, stacked ? order.codes.join(', ') : quote.code)) : null,
        el('div', {}, el('dt', {}, 'Total'), el('dd', {}, show(quote?.total ?? basket.total))),
        quote ? el('div', {}, el('dt', {}, 'Discount'), el('dd', {}, isZero(discount) ? show(discount) : minus(discount))) : null,
        el('div', {}, el('dt', {}, 'Paid'), el('dd', { id: 'receipt-paid' }, show(payable))),
        quote ? el('div', {}, el('dt', {}, 'Quoted'), el('dd', {}, when(quote.quoted_at))) : null,
      ),
      replayed ? el('p', { class: 'hint' }, 'This payment was already recorded; nothing was charged twice.') : null,
    ],
    { focus: true },
  );
}

// A receipt says how often the code (and this customer) has used it: the next order's quote knows.
function learnFromReceipt(receipt, order) {
  const entry = codes.get(receipt.quote.code);
  if (entry?.status !== 'found' || !receipt.usage) return;
  const { total, discounted } = receipt.usage;
  entry.usage = { ...entry.usage, total, discounted: discounted ?? entry.usage.discounted };
  // A campaign's code: what is left of it is the Worker's to say (its own cap is not the module's).
  if (entry.campaign) lookup(receipt.quote.code, { force: true });
  if (order.customer !== '') {
    customers.set(customerKey(receipt.quote.code, order.customer), {
      status: 'known',
      perCustomer: receipt.usage.per_customer,
      refusal: null,
    });
  }
}

// A refusal while reserving or paying: the reason, what the buyer was quoted, and that nothing was charged.
function refusedWhilePaying(order, answer) {
  if (order.codes.length > 1) return stackRefusedWhilePaying(order, answer);
  const entry = codes.get(order.code);
  const definition = entry?.status === 'found' ? entry.definition : null;
  let title;
  let sentence;
  if (answer.rejection === 'quote_changed' && answer.current) {
    title = 'The price changed';
    sentence = `The price changed while you were paying: you were quoted ${show(answer.quote?.payable ?? order.quote.payable)}, it is now ${show(answer.current.payable)}. Nothing was charged.`;
  } else if (answer.rejection === 'exhausted') {
    title = `${order.code} could not be applied`;
    sentence = `Someone else took the last use of ${order.code} while you were paying. Nothing was charged.`;
  } else {
    title = `${order.code} could not be applied`;
    sentence = `${refusalSentence(answer.rejection, order.code, definition, { customer: order.customer, detail: answer.detail })} Nothing was charged.`;
  }
  showRefusedWhilePaying(order, answer.rejection === 'quote_changed', title, sentence);
}

// A stack refused while reserving or paying (the Worker held or captured none of its codes): every
// code that refused, with its reason.
function stackRefusedWhilePaying(order, answer) {
  const rejections = answer.rejections ?? [];
  const changed = rejections.some((r) => r.rejection === 'quote_changed') || answer.rejection === 'quote_changed';
  let title;
  let sentence;
  if (changed) {
    const parts = listOf(rejections.filter((r) => r.rejection === 'quote_changed').map((r) => r.code));
    title = 'The price changed';
    sentence = `The price changed while you were paying${parts ? ` (${parts})` : ''}: you were quoted ${show(order.quote.payable)}. Nothing was charged.`;
  } else {
    const sentences = rejections.map((r) => {
      if (r.rejection === 'exhausted') return `Someone else took the last use of ${r.code} while you were paying.`;
      const entry = codes.get(r.code);
      const definition = entry?.status === 'found' ? entry.definition : null;
      return refusalSentence(r.rejection, r.code, definition, { customer: order.customer, detail: r.message, other: r.with });
    });
    title = `${codesOf(order)} could not be applied together`;
    sentence = `${sentences.join(' ') || problemSentence(422, answer)} Nothing was charged.`;
  }
  showRefusedWhilePaying(order, changed, title, sentence);
}

function showRefusedWhilePaying(order, changed, title, sentence) {
  const several = order.codes.length > 1;
  showOutcome(
    changed ? 'changed' : 'stale',
    [
      el('h3', {}, title),
      el('p', { id: 'stale-message' }, sentence),
      el(
        'p',
        { class: 'hint' },
        changed
          ? 'Check the new price above, then pay again.'
          : several
            ? 'You can remove a code that cannot be used, or pay without it.'
            : `You can pay the full price without the code, or try another code.`,
      ),
    ],
    { focus: true },
  );
  // What the page knew is out of date: fetch the definitions again, so the live quote says why.
  for (const code of order.codes) {
    if (order.customer !== '') customers.delete(customerKey(code, order.customer));
    refresh(code);
  }
}

function refresh(code) {
  lookup(code, { force: true });
}

function busyNote(headers) {
  const after = headers.get('retry-after');
  return el(
    'p',
    { id: 'busy-message', class: 'note' },
    `Many people are using this code right now${after ? `; try again in ${after} s` : ''}. Nothing was charged, and trying again is safe.`,
  );
}

function busy(headers, options) {
  showOutcome('conflict', [el('h3', {}, 'Busy, try again'), busyNote(headers)], options);
}

function failedNote(status, answer) {
  return el('p', { id: 'error-message', class: 'note' }, `The payment did not go through. ${problemSentence(status, answer)} Nothing was charged; you can try again.`);
}

function failed(status, answer, consequence, options) {
  showOutcome('error', [
    el('h3', {}, 'Something went wrong'),
    el('p', { id: 'error-message' }, `${problemSentence(status, answer)} ${consequence}`),
  ], options);
}

// ---- wiring ----

function onInput() {
  state.interacted = true;
  state.attempt = null; // a changed order is a new checkout attempt
  if (ui.outcome.dataset.kind !== 'none') clearOutcome();
  requote();
}

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
ui.newOrder.addEventListener('click', () => {
  clearOutcome();
  setPhase('shopping');
  requote();
  ui.code.focus();
});

for (const row of rows) row.priceCell.textContent = show({ amount: row.price, currency });

try {
  await init();
  digits = minorUnits(currency);
  state.ready = true;
  document.documentElement.dataset.ready = 'true';
  requote();
  scheduleLookup();
} catch (err) {
  render({ basket: null, message: `The quote module failed to load: ${err.message}`, kind: 'error' });
}
